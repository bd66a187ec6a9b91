"""What every game's position builder shares: rigged dice and answers by option key.

Each game has an `arrange` module of functions ``arrange.<thing>(state, ...)`` that set a
position by hand for rules scenarios, tests and puzzles (docs/engine-kit.md, "Positions
for tests"). They rig dice and answer requests through this module:

>>> from admiralty.games import load_game
>>> state = load_game("jamaica").new_game(players=3, seed=1)
>>> keys(state)
['dice:sun=6,moon=4', 'dice:sun=4,moon=6']
>>> [event.kind for event in choose(state, "dice:sun=4,moon=6")]
['dice_placed']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast

from admiralty.games.base import Event, IllegalAction, Request, Seat
from admiralty.games.chance import Chance, Name

T = TypeVar("T")


class Position(Protocol):
    """A game in progress, as these helpers use it."""

    chance: Chance

    def pending(self) -> list[Request]: ...

    def apply(self, seat: Seat, index: int) -> list[Event]: ...

    def request_for(self, seat: Seat) -> Request: ...


class RiggedChance(Chance):
    """A game's chance whose next throws of some dice are set: each die, known by its
    faces, throws the faces queued for it first, in order, whatever stream it is drawn
    from; every other draw (and every throw once its queue is empty) is the game's own."""

    __slots__ = ("queues",)

    def __init__(self, base: Chance, dice: Mapping[Sequence[Any], Iterable[Any]]) -> None:
        super().__init__(base.seed)
        previous = base.queues if isinstance(base, RiggedChance) else {}
        self.queues: dict[tuple[Any, ...], deque[Any]] = {
            faces: deque(queue) for faces, queue in previous.items()
        }
        for faces, thrown in dice.items():
            self.queues.setdefault(tuple(faces), deque()).extend(thrown)

    def rolls(self, faces: Sequence[T], count: int, *name: Name) -> tuple[T, ...]:
        thrown = super().rolls(faces, count, *name)
        queue = self.queues.get(tuple(faces))
        if not queue:
            return thrown
        return cast("tuple[T, ...]", tuple([queue.popleft() if queue else face for face in thrown]))


def rig_dice(state: Position, dice: Mapping[Sequence[Any], Iterable[Any]]) -> None:
    """Queue the next throws of each die of `dice` (its faces: the faces it throws next).

    The state gets a new `RiggedChance` holding what was rigged before and these: a clone
    made earlier keeps its own chance, so rig after cloning."""
    state.chance = RiggedChance(state.chance, dice)


def keys(state: Position, seat: Seat | None = None) -> list[str]:
    """The option keys of `seat`'s open request, or of the first open request."""
    return [option.key for option in _request(state, seat).options]


def choose(state: Position, *keys: str, seat: Seat | None = None) -> list[Event]:
    """Answer the open requests, in order, with the options of these keys (`seat`'s, or
    each time the first open request); returns the events of every answer.

    A request with a single option that is not the key asked for (a window published
    with PASS alone) is answered on the way, as the referee answers it.
    """
    events: list[Event] = []
    for key in keys:
        request = _request(state, seat)
        while len(request.options) == 1 and request.options[0].key != key:
            events += state.apply(request.seat, 0)
            request = _request(state, seat)
        found = [i for i, option in enumerate(request.options) if option.key == key]
        if not found:
            offered = [option.key for option in request.options]
            raise IllegalAction(f"{key!r} is not offered by {request.kind}: {offered}")
        events += state.apply(request.seat, found[0])
    return events


def _request(state: Position, seat: Seat | None) -> Request:
    if seat is not None:
        return state.request_for(seat)
    pending = state.pending()
    if not pending:
        raise IllegalAction("no request is open")
    return pending[0]
