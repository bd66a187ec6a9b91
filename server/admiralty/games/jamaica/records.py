"""The engine's two doors out: the events it emits and the requests it opens."""

from __future__ import annotations

from functools import cache
from typing import Any

from admiralty.games.base import Event, Request, Window

TURN, INTERRUPT, SEALED = Window.TURN, Window.INTERRUPT, Window.SEALED


@cache
def audience(seats: tuple[int, ...]) -> frozenset[int]:
    """The audience of a private event: one shared frozenset per group of seats."""
    return frozenset(seats)


class Records:
    """Opening requests and emitting events: a mixin over `JamaicaState`, whose `ask`,
    `then`, `sealed`, `window_id`, `active` and `_events` it uses."""

    def _open(self, seat: int, kind: str, prompt: str, options: tuple, then: str,
              args: tuple = (), optional: bool = False, window: Window | None = None) -> None:
        """Open a request; TURN for the active player, INTERRUPT for anyone else (rules 11).
        Its answer calls the method named `then` with the option's payload and `args`."""
        if window is None:
            window = TURN if seat == self.active else INTERRUPT
        self.window_id = window_id = self.window_id + 1
        self.ask = Request(seat, window_id, window, kind, prompt, options, optional)
        self.then = (then, args)

    def _open_sealed(self, kind: str, prompt: str, options: list[tuple]) -> None:
        """Open one SEALED window: every seat chooses at once among its own `options`."""
        self.window_id = window_id = self.window_id + 1
        self.sealed = {seat: Request(seat, window_id, SEALED, kind, prompt, choices)
                       for seat, choices in enumerate(options)}

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        """A public event."""
        self._events.append(Event(kind, data))

    def _tell(self, seats: tuple[int, ...], kind: str, secret: dict[str, Any],
              public: dict[str, Any]) -> None:
        """A private fact for `seats`, then its public twin without the secret (rules 12)."""
        self._events += (Event(kind, secret, audience(seats)), Event(kind, public))
