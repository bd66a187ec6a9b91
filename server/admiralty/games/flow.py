"""The decision flow every engine runs on: a stack of frames and the requests they open.

A game's turn is written as frames. A `Step` calls one method of the game (of its state or
of one of its collaborators), which may push more frames, open a request (`Flow.ask`,
`Flow.seal`), tell the table what happened (`Flow.emit`, `Flow.tell`) or end the game. A
`Poll` offers a list of seats, in order, the chance to act out of turn: each may act or
pass, any act starts the poll over (a reaction may provoke another), and the poll ends when
every seat has passed in a row. Frames pushed while answering run before the frame below
them, so a window inside a window nests by itself.

The flow owns what every engine used to hand-roll: window ids, validating answers (an
illegal answer changes nothing), applying a request with a single option without asking
(unless the engine must publish it, because whether it opens depends on hidden
information; the referee then asks it too), the SEALED window that waits for every seat,
and the events of the moment.

A step holds the method itself, bound to the object that owns it, never its name: a
misspelt continuation is an error for mypy and for the first line that builds it, and
"find usages" finds every caller. A copy of a game gives its flow the copies of those
owners (`Flow.copy`); a snapshot names each method, which the contract tests resolve back.

>>> class Toy:
...     def __init__(self):
...         self.flow, self.log = Flow(), []
...         self.flow.push(step(self.turn, 0), step(self.turn, 1))
...         self.flow.run()
...     def turn(self, seat):
...         self.flow.ask(seat, Window.TURN, "pick", "Pick one", OPTIONS, step(self.picked, seat))
...     def picked(self, option, seat):
...         self.log.append((seat, option.key))
...         self.flow.emit("picked", {"seat": seat, "key": option.key})
>>> OPTIONS = (Option("a", "A"), Option("b", "B"))
>>> toy = Toy()
>>> [(r.seat, r.window_id, r.kind) for r in toy.flow.pending()]
[(0, 1, 'pick')]
>>> [event.kind for event in toy.flow.apply(0, 1)]
['picked']
>>> toy.flow.apply(1, 0)[0].data
{'seat': 1, 'key': 'a'}
>>> toy.log, toy.flow.pending()
([(0, 'b'), (1, 'a')], [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from types import MethodType
from typing import Any, NamedTuple, TypeGuard, cast

from admiralty.games.base import (
    Event,
    GameState,
    IllegalAction,
    Option,
    Request,
    Seat,
    Window,
)

_SEALED = Window.SEALED

Continuation = Callable[..., None]
"""A method of a game's state or of one of its collaborators, bound to it."""

Step = tuple[Continuation, tuple[Any, ...]]
"""Call `method` with `args`: the pair ``(method, args)``, built by `step`.

As a frame it runs when it reaches the top of the stack; as the continuation of a request
it is called with the chosen `Option` first: ``method(option, *args)``. A plain tuple, not
a named one: CPython 3.11 builds and unpacks an exact tuple several times faster, and every
decision builds or unpacks a few."""


def step(method: Continuation, *args: Any) -> Step:
    """The `Step` calling `method` with `args`."""
    return (method, args)


def is_step(then: object) -> TypeGuard[Step]:
    """Whether `then` is one `Step`, not a `Poll` nor a tuple of Steps (one per option)."""
    return type(then) is tuple and len(then) == 2 and type(then[0]) is not tuple


class Poll(NamedTuple):
    """Offer `seats`, in this order, the chance to act: ``offer(seat, *args)`` either opens
    an optional request for that seat with `Flow.ask(..., polled=True)` (option 0 is
    PASS) or opens nothing (the seat may not act now). After any act the poll starts
    over from the first seat; it ends when every seat has passed or was not eligible
    since the last act."""

    seats: tuple[int, ...]
    offer: Continuation
    args: tuple[Any, ...] = ()
    next: int = 0
    """The position in `seats` of the seat offered next."""


Frame = Step | Poll


class Ask(NamedTuple):
    """An open request and what its answer calls: one `Step` for every option, or one
    per option (aligned with `request.options`)."""

    request: Request
    then: Step | tuple[Step, ...]
    polled: bool = False


class Flow:
    """The frames still to run, the open requests, the events of the moment and the last
    window id of one game.

    The one open request lives in plain slots (`request`, `then`, `polled`) rather than
    in an `Ask`: a game opens one per decision, and the record would cost more than the
    rules it serves. `asked` gives it as an `Ask` for whoever inspects the flow."""

    __slots__ = (
        "_auto",
        "events",
        "polled",
        "request",
        "sealed",
        "sealed_then",
        "stack",
        "then",
        "window_id",
    )

    def __init__(self) -> None:
        self.stack: list[Frame] = []
        self.request: Request | None = None
        """The open request outside a SEALED window."""
        self.then: Step | tuple[Step, ...] = _NOTHING
        self.polled = False
        self.sealed: dict[int, Request] = {}
        """The open requests of a SEALED window, by seat."""
        self.sealed_then: Step = _NO_STEP
        """What each answer of the SEALED window calls, the seat appended to its args:
        one Step for the window, not one per seat, since its seats are asked on every
        decision of the window and a record per seat would have to be mapped back."""
        self.window_id = 0
        self.events: list[Event] = []
        """What the steps told since the last answer (or since the game began)."""
        self._auto: tuple[Step, Option] | None = None
        """A single-option ask's continuation and its option: run before any frame."""

    @property
    def asked(self) -> Ask | None:
        """The open request outside a SEALED window and what its answer calls."""
        if self.request is None:
            return None
        return Ask(self.request, self.then, self.polled)

    # ------------------------------------------------------------------ building the turn

    def push(self, *frames: Frame) -> None:
        """Push `frames` so that the first given runs first. (Most pushes are of one frame,
        appended as it is: a reversed view or a slice of one costs twice the append.)"""
        if len(frames) == 1:
            self.stack.append(frames[0])
        else:
            self.stack += frames[::-1]

    def ask(
        self,
        seat: int,
        window: Window,
        kind: str,
        prompt: str,
        options: tuple[Option, ...],
        then: Step | tuple[Step, ...],
        optional: bool = False,
        publish: bool = False,
        polled: bool = False,
    ) -> None:
        """Open one request to `seat`; `then` is called with the answer. (Pass the flags by
        keyword; they are not keyword-only because CPython 3.11 does not specialise a call to
        a function with keyword-only parameters, and every decision calls this.)

        A request with a single option is applied at once without asking, unless it is
        `optional` (PASS is a real choice) or `publish` is set: a window whose opening
        would otherwise depend on hidden information is published even with PASS alone,
        so its opening tells the table nothing. `polled` marks the answer of a `Poll`.
        A `publish` or `polled` request is `must_ask`: the referee asks it of its seat
        even with PASS alone, so neither does the time it takes.
        """
        if len(options) == 1 and not (optional or publish or polled):
            # Marked in `request`, which `run` checks after every frame anyway, so that
            # the loop needs no check of its own for it.
            # `_chosen`, inlined: in Jamaica two asks in five have a single option.
            chosen: Any = then if then[0].__class__ is not tuple else then[0]
            self._auto = (chosen, options[0])
            self.request = _AUTO
            return
        if not options:
            raise ValueError(f"{kind}: a request needs at least one option")
        self.window_id = window_id = self.window_id + 1
        self.request = _request(
            seat, window_id, window, kind, prompt, options, optional or polled, publish or polled
        )
        self.then, self.polled = then, polled

    def seal(
        self, kind: str, prompt: str, options: Sequence[tuple[Option, ...]], then: Step
    ) -> None:
        """Open one SEALED window: seat `i` chooses among `options[i]`, no answer is
        revealed until all are in, and ``then(option, *args, seat)`` applies each answer."""
        if not options or not all(options):
            raise ValueError(f"{kind}: a sealed window needs a seat and an option per seat")
        self.window_id = window_id = self.window_id + 1
        self.sealed = {
            seat: _request(seat, window_id, _SEALED, kind, prompt, choices, False, False)
            for seat, choices in enumerate(options)
        }
        self.sealed_then = then

    def withdraw(self) -> None:
        """Close the open request unanswered and give its window id back, so that the
        step that opened it can open it again (after a position was changed by hand)."""
        if self.request is not None:
            self.request = None
            self.window_id -= 1

    def stop(self) -> None:
        """The game is over: nothing runs and nothing is open any more. What the answers
        would have called goes too: a step holds its owner, which holds this flow, and a
        finished game that kept one would wait for the garbage collector instead of being
        freed as soon as it is dropped."""
        self.stack.clear()
        self.request = None
        self.then = _NOTHING
        self.sealed = {}
        self.sealed_then = _NO_STEP
        self._auto = None

    # ------------------------------------------------------------------------ telling

    def emit(
        self, kind: str, data: Mapping[str, Any], audience: frozenset[Seat] | None = None
    ) -> None:
        """Tell what happened: to everyone, or only to the seats of `audience`. (The event is
        built from a tuple of its fields, without the named tuple's Python-level `__new__`,
        which costs more than the tuple: every decision tells about four events.)"""
        self.events.append(_tuple_new(Event, (kind, data, audience)))

    def tell(
        self,
        seats: tuple[Seat, ...],
        kind: str,
        secret: Mapping[str, Any],
        public: Mapping[str, Any],
    ) -> None:
        """A private fact for `seats`, then its public twin without the secret: everyone
        learns that it happened, only they learn what."""
        self.events += (
            _tuple_new(Event, (kind, secret, _audience(seats))),
            _tuple_new(Event, (kind, public, None)),
        )

    # -------------------------------------------------------------------- the engine side

    def pending(self) -> list[Request]:
        """Every request open now."""
        if self.request is not None:
            return [self.request]
        return list(self.sealed.values())

    def run(self) -> None:
        """Run frames until a request is open or nothing is left to run; what they tell
        joins `events`."""
        self.apply(_RUN, 0)  # `apply`'s loop, entered with no answer to apply

    def apply(self, seat: int, index: int) -> list[Event]:
        """Answer `seat`'s request with option `index`, run on to the next request, and
        return the events the steps told (the engine contract's `apply`).

        Raises IllegalAction, having changed nothing, when `seat` has no open request or
        `index` does not name one of its options."""
        # One frame from the answer to the next request: every decision comes through
        # here, and a call more would cost more than the checks it shares. A Step is told
        # apart from a Poll or a tuple of Steps by the class of it or of its first item
        # (`is_step`, inlined), which mypy does not narrow by: hence `Any`.
        then: Any
        frame: Any
        if seat is _RUN:  # `run`: what runs adds to the events of the moment
            events = self.events
        else:
            events = self.events = []
        request = self.request
        if request is None or request.seat != seat:  # a seat of a SEALED window
            request = self.sealed.get(seat)
            if request is None:
                if seat is not _RUN:
                    raise IllegalAction(f"seat {seat} has no open request")
            else:  # as the common answer: a third of Jamaica's decisions are its card's
                options = request.options
                if index.__class__ is not int or not 0 <= index < len(options):
                    index = _checked(index, len(options))
                option = options[index]
                del self.sealed[seat]
                method, args = self.sealed_then
                if args:
                    method(option, *args, seat)
                else:
                    method(option, seat)
                if self.sealed:  # the flow runs on once the last answer is in
                    return events
        elif self.polled:
            self._answer_poll(index)
            return events
        else:  # the common answer
            if index.__class__ is not int or index < 0:
                index = _checked(index, len(request.options))
            try:
                option = request.options[index]
            except IndexError:
                _checked(index, len(request.options))  # raises IllegalAction
                raise
            self.request = None
            then = self.then
            method, args = then if then[0].__class__ is not tuple else then[index]
            # `f(option, *args)` builds a list, then a tuple from it, which costs about as
            # much as the call itself: with no args the call is plain, else one tuple is built.
            if args:
                method(*((option,) + args))  # noqa: RUF005 (see above)
            else:
                method(option)
        # `run`'s loop: a check for an open request (or a single-option ask, see `ask`) and
        # one for a SEALED window per frame, a Step told apart from a Poll by its class.
        stack = self.stack
        while True:
            while stack and self.request is None and not self.sealed:
                frame = stack.pop()
                if frame.__class__ is tuple:
                    method, args = frame
                    method(*args)
                    continue
                seats, offer, args, at = frame
                if at < len(seats):
                    stack.append(_tuple_new(Poll, (seats, offer, args, at + 1)))
                    offer(seats[at], *args)
            if self.request is not _AUTO:
                return events
            auto = self._auto
            assert auto is not None
            self.request = self._auto = None
            (method, args), option = auto
            if args:  # one tuple built, as in the common answer
                method(*((option,) + args))  # noqa: RUF005
            else:
                method(option)

    def _answer_poll(self, index: int) -> None:
        """`apply` for a poll's request."""
        request, then = self.request, self.then
        assert request is not None
        option = _option(request.options, index)
        self.request = None
        if index:  # an act: the poll starts over, then the act is applied
            poll = self.stack[-1]
            assert isinstance(poll, Poll), "a Poll's offer opens a request, pushes nothing"
            self.stack[-1] = _tuple_new(Poll, (*poll[:3], 0))
            method, args = _chosen(then, index)
            method(option, *args)
        self.run()  # else PASS: the poll offers the next seat

    # ------------------------------------------------------------------------- copies

    def copy(self, *owners: tuple[object, object]) -> Flow:
        """An independent flow for a copy of the game: each ``(original, copy)`` pair names
        an object whose methods the steps call and the copy they call instead. Requests,
        options and args are immutable, so the containers suffice."""
        moved = _Rebinding({id(original): copy for original, copy in owners})
        other = object.__new__(Flow)
        other.stack = [moved.frame(frame) for frame in self.stack]
        other.request, other.polled = self.request, self.polled
        other.then = moved.then(self.then)
        other.sealed, other.sealed_then = dict(self.sealed), moved.step(self.sealed_then)
        other.window_id = self.window_id
        other.events = []
        other._auto = None  # consumed before any answer returns
        return other

    def snapshot(self) -> dict[str, Any]:
        """The flow as plain JSON data, for a state's `snapshot`: each method by its name."""
        sealed_method, sealed_args = self.sealed_then
        return {
            "stack": [_frame_json(frame) for frame in self.stack],
            "asked": _ask_json(Ask(self.request, self.then, self.polled))
            if self.request is not None
            else None,
            "sealed": [
                _ask_json(Ask(request, (sealed_method, (*sealed_args, seat))))
                for seat, request in self.sealed.items()
            ],
            "window_id": self.window_id,
        }


class FlowState(GameState):
    """A game whose decisions run on a `Flow`: its open requests and its answers are the
    flow's."""

    flow: Flow

    def pending(self) -> list[Request]:
        flow = self.flow  # `flow.pending()`, inlined: asked before every decision
        return [flow.request] if flow.request is not None else list(flow.sealed.values())

    def apply(self, seat: Seat, index: int) -> list[Event]:
        return self.flow.apply(seat, index)


class _Rebinding:
    """Moves steps from a game's objects to their copies (`Flow.copy`)."""

    def __init__(self, owners: dict[int, object]):
        self.owners = owners

    def method(self, method: Continuation) -> Continuation:
        owner = getattr(method, "__self__", None)
        if owner is None:
            return method
        try:
            return MethodType(cast(MethodType, method).__func__, self.owners[id(owner)])
        except KeyError:
            raise ValueError(
                f"{method.__qualname__}: its owner was not given to Flow.copy"
            ) from None

    def step(self, frame: Step) -> Step:
        return (self.method(frame[0]), frame[1])

    def frame(self, frame: Frame) -> Frame:
        if frame.__class__ is tuple:
            return self.step(cast(Step, frame))
        poll = cast(Poll, frame)
        return poll._replace(offer=self.method(poll.offer))

    def then(self, then: Step | tuple[Step, ...]) -> Step | tuple[Step, ...]:
        if is_step(then):
            return self.step(then)
        return tuple(self.step(each) for each in cast("tuple[Step, ...]", then))


# ------------------------------------------------------------ the kit's fast builders

_tuple_new = tuple.__new__
"""Builds a named tuple from a tuple of its fields without the Python-level `__new__`."""


@cache
def _audience(seats: tuple[Seat, ...]) -> frozenset[Seat]:
    """One frozenset per group of seats told a secret: most secrets are told every round."""
    return frozenset(seats)


def _request(
    seat: Seat,
    window_id: int,
    window: Window,
    kind: str,
    prompt: str,
    options: tuple[Option, ...],
    optional: bool,
    must_ask: bool,
) -> Request:
    """`Request(seat, window_id, window, kind, prompt, options, optional, 0, must_ask)`,
    built as `emit` builds events: one a decision."""
    return _tuple_new(
        Request, (seat, window_id, window, kind, prompt, options, optional, 0, must_ask)
    )


def _nothing(*_: Any) -> None:
    """What `sealed_then` calls before the first SEALED window: never called."""


_AUTO = Request(-1, 0, Window.TURN, "auto", "", ())
"""What `request` holds from a single-option ask until `run` applies it: never seen
outside `run` (a step opens at most one request)."""

_NOTHING: tuple[Step, ...] = ()
"""What `then` holds while no request is open."""

_NO_STEP = step(_nothing)

_RUN: Any = object()
"""The seat `run` answers as: no seat, so `apply` only runs the flow on."""


def _chosen(then: Step | tuple[Step, ...], index: int) -> Step:
    """The step an answer with option `index` calls: `then`, or its step for that option."""
    return then if is_step(then) else cast("tuple[Step, ...]", then)[index]


def _option(options: tuple[Option, ...], index: int) -> Option:
    """The option `index` names; IllegalAction if it names none."""
    if type(index) is not int or not 0 <= index < len(options):
        index = _checked(index, len(options))
    return options[index]


def _checked(index: object, count: int) -> int:
    """`index` as an int if it names one of `count` options (an int subclass may, a bool
    may not); IllegalAction otherwise."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise IllegalAction(f"an option index must be an int, not {index!r}")
    if not 0 <= index < count:
        raise IllegalAction(f"option {index} is not one of 0..{count - 1}")
    return int(index)


def request_json(request: Request) -> dict[str, Any]:
    """A request as plain JSON data."""
    return {
        "seat": request.seat,
        "window_id": request.window_id,
        "window": str(request.window),
        "kind": request.kind,
        "prompt": request.prompt,
        "optional": request.optional,
        "default": request.default,
        "options": [
            {"key": o.key, "label": o.label, "payload": dict(o.payload)} for o in request.options
        ],
    }


def _frame_json(frame: Frame) -> list[Any]:
    if is_step(frame):
        return ["step", frame[0].__name__, list(frame[1])]
    assert isinstance(frame, Poll)
    return ["poll", list(frame.seats), frame.offer.__name__, list(frame.args), frame.next]


def _ask_json(ask: Ask) -> dict[str, Any]:
    steps = [ask.then] if is_step(ask.then) else list(cast("tuple[Step, ...]", ask.then))
    return {
        "request": request_json(ask.request),
        "polled": ask.polled,
        "then": [[method.__name__, list(args)] for method, args in steps],
    }
