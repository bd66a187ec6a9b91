"""Play `Bot` subclasses against an engine in this process: no gRPC, no bot processes.

    from admiralty.referee.local import play_local

    result = play_local("jamaica", [MyBot(), RandomBot()], seed=7)
    result.places, result.decisions

The match is the referee's own (`admiralty.referee.match.Match`): each bot is sent exactly
the `DecideRequest`s it would be sent over the wire (the same codec, redaction, event
batching, request ids and window numbers; single-option requests, but for windows opened
whatever the seat holds, and the bot's auto-pass windows answered by the referee) and is
called as the SDK's server calls it (`admiralty_sdk.bot.BotServicer`). Only the
clock differs: it stands still, so no deadline or time bank ever runs out, and the match
is a pure function of the seed and the bots' answers; and an exception a bot raises is
raised here, with its traceback, where a served bot's would be a crash incident. For bot
authors' unit tests and fast experiments.

Search. A bot that defines ``use_sampler(match_id, seat, sampler)`` is given, before the
match starts, one `Sampler` per seat it plays: its only method, ``sample(rng)``, returns
``state.determinize(seat, rng)`` of the position being decided — a full engine state that
agrees with all that seat has seen, its hidden parts drawn from `rng` — and never the
state itself. A bot served over gRPC has no engine state and cannot search this way.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import random
import shlex
import sys
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from admiralty.games import GameState, Request
from admiralty.referee.clients import InProcessSeat, check_hello
from admiralty.referee.match import (
    Answer,
    DecisionListener,
    Incident,
    Match,
    MatchReport,
    MatchSpec,
    checked_options,
)
from admiralty.wire import from_window_kind
from admiralty_sdk.bot import Bot, BotServicer
from admiralty_sdk.v1 import bot_pb2


@dataclass(frozen=True)
class Decision:
    """One applied answer, as the match record writes it: `how` is bot, forced (a single
    option) or auto_pass."""

    step: int
    seat: int
    kind: str
    index: int
    how: str


@dataclass(frozen=True)
class LocalResult:
    """The outcome of a local match and every decision applied, in order."""

    places: list[int]
    scores: list[int]
    decisions: list[Decision]
    report: MatchReport
    """The referee's report (`admiralty play --json` prints its `to_json()`)."""


class Sampler:
    """A seat's door to the game for search: determinizations of the position being
    decided, never the position itself. It holds nothing but a weak reference slot: the
    match and seat it samples are kept in this module's `_SAMPLED`, keyed by the sampler,
    so no attribute of what a bot is given leads to the real state. (In one process
    nothing is sealed; this keeps the state out of reach of a bot walking its objects.)"""

    __slots__ = ("__weakref__",)

    def sample(self, rng: random.Random) -> GameState:
        """`state.determinize(seat, rng)`: what this seat cannot see, drawn from `rng`."""
        match, seat = _SAMPLED[self]
        return match.state.determinize(seat, rng)


_SAMPLED: weakref.WeakKeyDictionary[Sampler, tuple[Match, int]] = weakref.WeakKeyDictionary()
"""The match and seat of each sampler alive."""


def _sampler(match: Match, seat: int) -> Sampler:
    sampler = Sampler()
    _SAMPLED[sampler] = (match, seat)
    return sampler


class LocalClient(InProcessSeat):
    """A `Bot` where the referee expects a `BotClient`: its answers come from the SDK's own
    servicer, called directly."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self._servicer = BotServicer(bot)
        self.name, self.version, self.games = bot.name, bot.version, tuple(bot.games)
        self.auto_pass: frozenset = frozenset()

    async def hello(self) -> None:
        """Who the bot says it is, checked as the referee checks a served bot."""
        hello = await self._servicer.Hello(bot_pb2.HelloRequest(), None)
        check_hello(hello)
        self.name, self.version, self.games = hello.name, hello.version, tuple(hello.games)
        self.auto_pass = frozenset(from_window_kind(kind) for kind in hello.auto_pass)

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        return await self._servicer.answer(bot_pb2.DecideRequest.FromString(request))

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        await self._servicer.MatchOver(request, None)


def play_local(
    game: str,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    deadline: float = 2.0,
    time_bank: float = 60.0,
) -> LocalResult:
    """Play one match of `game` between `bots` (seat i is `bots[i]`) from `seed`.

    `options` are the game's (see `admiralty games`); `deadline` and `time_bank` are only
    the figures the requests show, since the clock stands still. Raises ValueError for an
    unknown game, bad options, a player count the game does not allow or a bot that does
    not play `game`. From a running event loop, await `run_local` instead."""
    resolved = checked_options(game, len(bots), dict(options or {}))
    spec = MatchSpec(f"local-{game}-{seed}", game, seed, resolved, deadline, time_bank)
    return asyncio.run(run_local(spec, bots))


async def run_local(spec: MatchSpec, bots: Sequence[Bot]) -> LocalResult:
    """The match `spec` (its options resolved, its record written if it names one) between
    `bots`, in the running event loop, under a clock that stands still."""
    decisions: list[Decision] = []

    def keep(step: int, request: Request, answer: Answer, caused: Sequence[Incident]) -> None:
        decisions.append(Decision(step, request.seat, request.kind, answer.index, answer.how))

    match = await local_match(spec, bots, [keep])
    report = await match.run()
    return LocalResult(report.places, report.scores, decisions, report)


async def local_match(
    spec: MatchSpec, bots: Sequence[Bot], decision_listeners: Sequence[DecisionListener] = ()
) -> Match:
    """The referee's match `spec` between `bots`, ready to `run()` under a clock that
    stands still: the bots greeted, and a `Sampler` given to each that asks for one."""
    clients = [LocalClient(bot) for bot in bots]
    for client in clients:
        await client.hello()
        if not client.plays(spec.game):
            raise ValueError(
                f"{client.name} does not play {spec.game} (it plays {', '.join(client.games)})"
            )
    match = Match(
        spec,
        clients,
        wire_id=spec.match_id,
        clock=lambda: 0.0,
        decision_listeners=decision_listeners,
    )
    for seat, bot in enumerate(bots):
        use_sampler = getattr(bot, "use_sampler", None)
        if use_sampler is not None:
            use_sampler(match.wire_id, seat, _sampler(match, seat))
    return match


def load_bot(spec: str | Path) -> Bot:
    """The bot of `spec`, ``file.py [args]``: the one `Bot` subclass the Python file
    defines, built by its ``from_argv(args)`` class method if it has one, else with no
    arguments (and no args allowed). ValueError saying what is wrong otherwise."""
    path, *args = shlex.split(str(spec)) if isinstance(spec, str) else [str(spec)]
    cls = _bot_class(Path(path))
    from_argv = getattr(cls, "from_argv", None)
    if from_argv is not None:
        return from_argv(args)
    if args:
        raise ValueError(
            f"{path}: {cls.__name__} takes no arguments here (it has no "
            f"from_argv): {' '.join(args)}"
        )
    return cls()


def _bot_class(path: Path) -> type[Bot]:
    if path.suffix != ".py" or not path.is_file():
        raise ValueError(f"{path}: a local bot is a Python file defining a Bot subclass")
    name = f"_admiralty_local_{path.stem}_{abs(hash(path.resolve()))}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up
    module_spec.loader.exec_module(module)
    found = [
        cls
        for cls in vars(module).values()
        if inspect.isclass(cls)
        and issubclass(cls, Bot)
        and cls is not Bot
        and cls.__module__ == name
    ]
    if len(found) != 1:
        what = "no Bot subclass" if not found else f"{len(found)} Bot subclasses"
        raise ValueError(
            f"{path}: a local bot is a Python file defining one Bot subclass; it defines {what}"
        )
    return found[0]
