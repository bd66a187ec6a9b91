"""The decision flow every engine runs on: a stack of frames and the requests they open.

A game's turn is written as frames. A `Step` runs one method of the game, which may push
more frames, open a request (`Flow.ask`, `Flow.seal`) or end the game. A `Poll` offers a
list of seats, in order, the chance to act out of turn: each may act or pass, any act
starts the poll over (a reaction may provoke another), and the poll ends when every
seat has passed in a row. Frames pushed while answering run before the frame below
them, so a window inside a window nests by itself.

The flow owns what every engine used to hand-roll: window ids, validating answers (an
illegal answer changes nothing), applying a request with a single option without
asking (unless the engine must publish it, because whether it opens depends on hidden
information; the referee then asks it too) and the SEALED window that waits for every
seat.

Frames, continuations and asks are tuples of method names and plain data, so a state
copies with a list slice and snapshots to JSON.

>>> class Toy:
...     apply = apply  # the engine contract's `apply`, events gathered in `_events`
...     def __init__(self):
...         self.flow, self.log, self._events = Flow(), [], []
...         self.flow.push(step("turn", 0), step("turn", 1))
...     def turn(self, seat):
...         self.flow.ask(seat, Window.TURN, "pick", "Pick one", OPTIONS, step("picked", seat))
...     def picked(self, option, seat):
...         self.log.append((seat, option.key))
>>> OPTIONS = (Option("a", "A"), Option("b", "B"))
>>> toy = Toy()
>>> toy.flow.run(toy)
>>> [(r.seat, r.window_id, r.kind) for r in toy.flow.pending()]
[(0, 1, 'pick')]
>>> toy.apply(0, 1)
[]
>>> toy.apply(1, 0)
[]
>>> toy.log, toy.flow.pending()
([(0, 'b'), (1, 'a')], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TypeGuard, cast

from admiralty.games.base import Event, IllegalAction, Option, Request, Window, new_request

_SEALED = Window.SEALED


Step = tuple[str, tuple[Any, ...]]
"""Call the game's method `name` with `args`: the pair ``(name, args)``, built by `step`.

As a frame it runs when it reaches the top of the stack; as the continuation of a request
it is called with the chosen `Option` first: ``name(option, *args)``. A plain tuple, not a
named one: CPython 3.11 builds and unpacks an exact tuple several times faster, and every
decision builds or unpacks a few (a named tuple cost Jamaica 2 % of its time)."""


def step(name: str, *args: Any) -> Step:
    """The `Step` calling the game's method `name` with `args`."""
    return (name, args)


def is_step(then: object) -> TypeGuard[Step]:
    """Whether `then` is one `Step`, not a `Poll` nor a tuple of Steps (one per option)."""
    return type(then) is tuple and len(then) == 2 and type(then[0]) is str


class Poll(NamedTuple):
    """Offer `seats`, in this order, the chance to act: ``offer(seat, *args)`` either opens
    an optional request for that seat with `Flow.ask(..., polled=True)` (option 0 is
    PASS) or opens nothing (the seat may not act now). After any act the poll starts
    over from the first seat; it ends when every seat has passed or was not eligible
    since the last act."""

    seats: tuple[int, ...]
    offer: str
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
    """The frames still to run, the open requests and the last window id of one game.

    The one open request lives in plain slots (`request`, `then`, `polled`) rather than
    in an `Ask`: a game opens one per decision, and the record would cost more than the
    rules it serves. `asked` gives it as an `Ask` for whoever inspects the flow."""

    __slots__ = ("_auto", "polled", "request", "sealed", "sealed_then", "stack", "then",
                 "window_id")

    def __init__(self) -> None:
        self.stack: list[Frame] = []
        self.request: Request | None = None
        """The open request outside a SEALED window."""
        self.then: Step | tuple[Step, ...] = _NOTHING
        self.polled = False
        self.sealed: dict[int, Request] = {}
        """The open requests of a SEALED window, by seat."""
        self.sealed_then = _NO_STEP
        """What each answer of the SEALED window calls, the seat appended to its args:
        one Step for the window, not one per seat, since its seats are asked on every
        decision of the window and a record per seat would have to be mapped back."""
        self.window_id = 0
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
        """Push `frames` so that the first given runs first."""
        self.stack += reversed(frames)

    def ask(self, seat: int, window: Window, kind: str, prompt: str,
            options: tuple[Option, ...], then: Step | tuple[Step, ...],
            optional: bool = False, publish: bool = False, polled: bool = False) -> None:
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
            self._auto = (_chosen(then, 0), options[0])
            self.request = _AUTO
            return
        if not options:
            raise ValueError(f"{kind}: a request needs at least one option")
        self.window_id = window_id = self.window_id + 1
        self.request = new_request(seat, window_id, window, kind, prompt, options,
                                   optional or polled, publish or polled)
        self.then, self.polled = then, polled

    def seal(self, kind: str, prompt: str, options: Sequence[tuple[Option, ...]],
             then: Step) -> None:
        """Open one SEALED window: seat `i` chooses among `options[i]`, no answer is
        revealed until all are in, and ``then(option, seat)`` applies each answer."""
        if not options or not all(options):
            raise ValueError(f"{kind}: a sealed window needs a seat and an option per seat")
        self.window_id = window_id = self.window_id + 1
        self.sealed = {seat: new_request(seat, window_id, _SEALED, kind, prompt, choices)
                       for seat, choices in enumerate(options)}
        self.sealed_then = then

    def withdraw(self) -> None:
        """Close the open request unanswered and give its window id back, so that the
        step that opened it can open it again (after a position was changed by hand)."""
        if self.request is not None:
            self.request = None
            self.window_id -= 1

    def stop(self) -> None:
        """The game is over: nothing runs and nothing is open any more."""
        self.stack.clear()
        self.request = None
        self.sealed = {}
        self._auto = None

    # -------------------------------------------------------------------- the engine side

    def pending(self) -> list[Request]:
        """Every request open now."""
        if self.request is not None:
            return [self.request]
        return list(self.sealed.values())

    def run(self, game: Any) -> None:
        """Run frames until a request is open or nothing is left to run; what they emit
        joins `game._events`."""
        apply(game, _RUN, 0)  # `apply`'s loop, entered with no answer to apply

    def _answer_poll(self, game: Any, index: int) -> None:
        """`apply` for a poll's request."""
        request, then = self.request, self.then
        assert request is not None
        option = _option(request.options, index)
        self.request = None
        if index:  # an act: the poll starts over, then the act is applied
            poll = self.stack[-1]
            assert isinstance(poll, Poll), "a Poll's offer opens a request, pushes nothing"
            self.stack[-1] = _tuple_new(Poll, (*poll[:3], 0))
            name, args = _chosen(then, index)
            getattr(game, name)(option, *args)
        self.run(game)  # else PASS: the poll offers the next seat

    # ------------------------------------------------------------------------- copies

    def copy(self) -> Flow:
        """An independent flow: frames and asks are immutable, so the containers suffice."""
        other = object.__new__(Flow)
        other.stack = self.stack[:]
        other.request, other.then, other.polled = self.request, self.then, self.polled
        other.sealed, other.sealed_then = dict(self.sealed), self.sealed_then
        other.window_id = self.window_id
        other._auto = None  # consumed before any answer returns
        return other

    def snapshot(self) -> dict[str, Any]:
        """The flow as plain JSON data, for a state's `snapshot`."""
        return {
            "stack": [_frame_json(frame) for frame in self.stack],
            "asked": _ask_json(Ask(self.request, self.then, self.polled))
            if self.request is not None else None,
            "sealed": [_ask_json(Ask(request, (self.sealed_then[0],
                                               (*self.sealed_then[1], seat))))
                       for seat, request in self.sealed.items()],
            "window_id": self.window_id,
        }


_tuple_new = tuple.__new__
"""Builds a named tuple from a tuple of its fields without the Python-level `__new__`."""

_AUTO = Request(-1, 0, Window.TURN, "auto", "", ())
"""What `request` holds from a single-option ask until `run` applies it: never seen
outside `run` (a step opens at most one request)."""

_NOTHING: tuple[Step, ...] = ()
"""What `then` holds while no request is open."""

_NO_STEP = step("")
"""What `sealed_then` holds before the first SEALED window."""


_RUN: Any = object()
"""The seat `run` answers as: no seat, so `apply` only runs the flow on."""


def apply(game: Any, seat: int, index: int) -> list[Event]:
    """The engine contract's `apply` of every game on a flow, which its class takes as its
    own (``apply = flow.apply``): answer `seat`'s request with option `index`, run the
    flow on to the next request, and return the events the game's steps appended to a
    fresh `game._events`.

    Raises IllegalAction, having changed nothing, when `seat` has no open request or
    `index` does not name one of its options."""
    # The game's method itself, not a call from it into the flow, and one frame from the
    # answer to the next request: every decision comes through here, and a call more
    # would cost more than the checks it shares. A Step is told apart from a Poll or a
    # tuple of Steps by the class of it or of its first item (`is_step`, inlined), which
    # mypy does not narrow by: hence `Any`.
    then: Any
    frame: Any
    flow: Flow = game.flow
    if seat is _RUN:  # `Flow.run`: what runs adds to the events of the moment
        events: list[Event] = game._events
    else:
        events = game._events = []
    request = flow.request
    if request is None or request.seat != seat:  # a seat of a SEALED window
        request = flow.sealed.get(seat)
        if request is None:
            if seat is not _RUN:
                raise IllegalAction(f"seat {seat} has no open request")
        else:
            options = request.options
            if index.__class__ is not int or not 0 <= index < len(options):
                index = _checked(index, len(options))
            option = options[index]
            del flow.sealed[seat]
            name, args = flow.sealed_then
            if args:
                getattr(game, name)(option, *args, seat)
            else:  # no tuple to build (Jamaica's card choice; see the common answer)
                getattr(game, name)(option, seat)
            if flow.sealed:  # the flow runs on once the last answer is in
                return events
    elif flow.polled:
        flow._answer_poll(game, index)
        return events
    else:  # the common answer
        if index.__class__ is not int or index < 0:
            index = _checked(index, len(request.options))
        try:
            option = request.options[index]
        except IndexError:
            _checked(index, len(request.options))  # raises IllegalAction
            raise
        flow.request = None
        then = flow.then
        name, args = then if then[0].__class__ is str else then[index]
        # `f(option, *args)` builds a list, then a tuple from it, which costs about as
        # much as the call itself: with no args the call is plain, else one tuple is built.
        if args:
            getattr(game, name)(*((option,) + args))  # noqa: RUF005 (see above)
        else:
            getattr(game, name)(option)
    # `run`'s loop: a check for an open request (or a single-option ask, see `ask`) and
    # one for a SEALED window per frame, a Step told apart from a Poll by its class.
    stack = flow.stack
    while True:
        while stack and flow.request is None and not flow.sealed:
            frame = stack.pop()
            if frame.__class__ is tuple:
                name, args = frame
                getattr(game, name)(*args)
                continue
            seats, offer, args, at = frame
            if at < len(seats):
                stack.append(_tuple_new(Poll, (seats, offer, args, at + 1)))
                getattr(game, offer)(seats[at], *args)
        if flow.request is not _AUTO:
            return events
        auto = flow._auto
        assert auto is not None
        flow.request = flow._auto = None
        (name, args), option = auto
        getattr(game, name)(option, *args)


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
        "seat": request.seat, "window_id": request.window_id, "window": str(request.window),
        "kind": request.kind, "prompt": request.prompt, "optional": request.optional,
        "default": request.default,
        "options": [{"key": o.key, "label": o.label, "payload": dict(o.payload)}
                    for o in request.options],
    }


def _frame_json(frame: Frame) -> list[Any]:
    if is_step(frame):
        return ["step", frame[0], list(frame[1])]
    assert isinstance(frame, Poll)
    return ["poll", list(frame.seats), frame.offer, list(frame.args), frame.next]


def _ask_json(ask: Ask) -> dict[str, Any]:
    steps = [ask.then] if is_step(ask.then) else list(ask.then)
    return {"request": request_json(ask.request), "polled": ask.polled,
            "then": [[name, list(args)] for name, args in steps]}
