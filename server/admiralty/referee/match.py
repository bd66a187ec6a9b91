"""The match loop: the engine's pending requests, asked of remote bots under the referee's clock.

The referee is the only clock. Every request carries the seat's deadline and time bank;
a late, illegal, crashed or unreachable answer becomes an incident and the failure policy
chooses the option applied instead, so the match always finishes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import secrets
import time
from array import array
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from admiralty.games import Event, GameState, Outcome, Request, Window, load_game
from admiralty.referee.clients import SeatBot
from admiralty.referee.policy import FailurePolicy, IncidentKind, fallback_index
from admiralty.referee.record import RecordWriter
from admiralty.text import printable
from admiralty.wire import (
    codec_for,
    option_fields,
    struct,
    to_window_kind,
)
from admiralty.wire.assembly import Record, SharedEvent, told
from admiralty_sdk.v1 import bot_pb2, common_pb2

MAX_STEPS = 100_000
"""A guard against an engine that never ends; every engine caps its own game length well below."""

HUNG_AFTER = 3
"""Timeouts in a row after which a bot is treated as hung for the rest of the match."""

BROKEN_AFTER = 3
"""Failed answers in a row (late, illegal, stale or oversize) after which a bot is treated
as broken for the rest of the match, as a hung one is: the policy's moves must not be a
strategy, and a bot answering nothing legal would otherwise play the engine's defaults."""

BROKEN_SHARE_FROM = 10
"""Requests a seat must have been asked in a match before the share of its failed answers
is judged: from then on, a seat more than half of whose answers failed is broken. Not
before, so that one early failure (1 of 1, 2 of 3) is no verdict."""

IS_HUNG, IS_BROKEN = "the bot is hung", "the bot is broken"
"""What the incident that retires a hung or broken seat says of its bot, before `RETIRED`."""
RETIRED = "the seat is played by the policy from now on and placed last"
"""How the incident that retires a seat ends its detail."""

DETAIL_LIMIT = 200
"""Characters of an incident's detail; a bot's own strings never grow a record unbounded."""

REPORT_LIMIT = 1400
"""Characters of the detail of a `DIAGNOSED` incident: the bot's report of its error (the
Python SDK sends the exception and its innermost frames, at most 1 KiB) and what the
launcher adds."""

DIAGNOSED = frozenset({IncidentKind.ILLEGAL, IncidentKind.CRASH})
"""Incidents whose detail the launcher completes (`BotClient.diagnose`): a call the bot
failed with an error, or by crashing."""

RETIRING = frozenset({IncidentKind.CRASH, IncidentKind.UNREACHABLE})
"""Incidents after which the seat is no longer asked and is placed last, whatever the policy."""


@dataclass(frozen=True)
class MatchSpec:
    """Everything that determines a match, apart from the bots' answers."""

    match_id: str
    game: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    deadline: float = 2.0
    time_bank: float = 60.0
    policy: FailurePolicy = FailurePolicy.DEFAULT
    record_path: Path | None = None


@dataclass
class Incident:
    request_id: str
    seat: int
    kind: IncidentKind
    detail: str
    applied_index: int

    def to_json(self) -> dict[str, Any]:
        return {
            "request_id": self.request_id,
            "seat": self.seat,
            "kind": str(self.kind),
            "detail": self.detail,
            "applied_index": self.applied_index,
        }

    def pb(self) -> common_pb2.Incident:
        return common_pb2.Incident(
            request_id=self.request_id,
            seat=self.seat,
            kind=_INCIDENT_KINDS[self.kind],
            detail=self.detail,
            applied_index=self.applied_index,
        )


@dataclass(frozen=True)
class Answer:
    """The option applied for a request, and how the referee obtained it."""

    index: int
    request_id: str = ""
    latency_ms: float = 0.0
    how: str = "bot"
    """bot, forced (a single option, not `must_ask`), auto_pass, forfeited or incident."""


@dataclass(slots=True)
class SeatStats:
    """One seat's clock, its own request and window numbering, and what it has been told.

    Every number a seat receives counts only what that seat has seen: its requests, its
    windows and (as an event's step) the requests it had been sent when the event happened.
    """

    bank: float
    latencies_ms: array[float] = field(default_factory=lambda: array("d"))
    """One a round trip, kept for the report: 8 bytes each in an array, 32 in a list (a
    Black Fleet match asks ~2,700)."""
    retired: IncidentKind | None = None
    """Why the referee plays this seat's moves by the policy (it is then placed last)."""
    forfeited: bool = False
    informed: bool = False
    asked: int = 0
    windows: int = 0
    last_window: int | None = None
    timeouts_in_row: int = 0
    failed: int = 0
    """Of the `asked`, the answers that failed."""
    failed_in_row: int = 0
    unsent: list[tuple[int, SharedEvent]] = field(default_factory=list)
    """The events this seat may see that it has not been sent yet, with their step."""

    def window_number(self, engine_window: int) -> int:
        """This seat's number for an engine window: 1, 2, ... in the order it is asked."""
        if engine_window != self.last_window:
            self.windows += 1
            self.last_window = engine_window
        return self.windows


def won_alone(margin: int, forfeited: bool) -> bool:
    """Whether the one seat of a one-seat match beat the automated opponent: its score is
    its margin over it, and 0 or more wins, unless the seat forfeited or was retired (it
    lost, as it would be placed last at a table of several seats). Its place is always 1,
    the only seat's, whichever way it went."""
    return margin >= 0 and not forfeited


@dataclass
class MatchReport:
    """The result of a match as the referee saw it."""

    spec: MatchSpec
    bot_names: list[str]
    places: list[int]
    scores: list[int]
    forfeited: list[int]
    incidents: list[Incident]
    latencies_ms: list[list[float]]
    steps: int
    round_trips: int
    wire_id: str = ""

    def to_json(self) -> dict[str, Any]:
        """The operator's report: the seed and the record path included. The one seat of a
        one-seat match also says whether it `won` (its place is 1 either way)."""
        placements = [
            {
                "seat": seat,
                "bot": name,
                "place": place,
                "score": score,
                "forfeited": seat in self.forfeited,
            }
            for seat, (name, place, score) in enumerate(
                zip(self.bot_names, self.places, self.scores, strict=True)
            )
        ]
        if len(placements) == 1:
            placements[0]["won"] = won_alone(self.scores[0], 0 in self.forfeited)
        return {
            "match_id": self.spec.match_id,
            "game": self.spec.game,
            "seed": self.spec.seed,
            "placements": placements,
            "incidents": [incident.to_json() for incident in self.incidents],
            "record": str(self.spec.record_path) if self.spec.record_path else None,
        }

    def result_pb(
        self, seats: Container[int] | None = None, match_id: str | None = None
    ) -> common_pb2.MatchResult:
        """The public result with the incidents of `seats` (every seat's when None), under
        `match_id` (the operator's id when None)."""
        return common_pb2.MatchResult(
            match_id=self.spec.match_id if match_id is None else match_id,
            game=self.spec.game,
            placements=[
                common_pb2.Placement(
                    seat=index,
                    bot=name,
                    place=place,
                    score=score,
                    forfeited=index in self.forfeited,
                )
                for index, (name, place, score) in enumerate(
                    zip(self.bot_names, self.places, self.scores, strict=True)
                )
            ],
            incidents=[i.pb() for i in self.incidents if seats is None or i.seat in seats],
        )


_INCIDENT_KINDS = {
    IncidentKind.TIMEOUT: common_pb2.INCIDENT_KIND_TIMEOUT,
    IncidentKind.CRASH: common_pb2.INCIDENT_KIND_CRASH,
    IncidentKind.UNREACHABLE: common_pb2.INCIDENT_KIND_UNREACHABLE,
    IncidentKind.ILLEGAL: common_pb2.INCIDENT_KIND_ILLEGAL,
    IncidentKind.STALE: common_pb2.INCIDENT_KIND_STALE,
    IncidentKind.OVERSIZE: common_pb2.INCIDENT_KIND_OVERSIZE,
}

Listener = Callable[[int, Sequence[Event], GameState], None]
"""Called after every applied decision with the step, its events and the state (to view)."""

DecisionListener = Callable[[int, Request, Answer, Sequence[Incident]], None]
"""Called before every decision is applied with its step, the request, the answer applied
(its option and `how` it was obtained) and the incidents it caused: what a seat's-eye
screen shows of the seat's own requests, and the local runner's list of decisions."""


class Match:
    """One match between connected bots, run to the end by `run()`.

    `wire_id` is the match id the bots are sent (random unless given, e.g. by a test that
    compares two matches); `state` starts from a given position instead of the spec's seed;
    `clock` is the referee's clock (monotonic seconds).
    """

    def __init__(
        self,
        spec: MatchSpec,
        bots: Sequence[SeatBot],
        listeners: Sequence[Listener] = (),
        *,
        wire_id: str | None = None,
        state: GameState | None = None,
        clock: Callable[[], float] = time.monotonic,
        decision_listeners: Sequence[DecisionListener] = (),
    ):
        self.spec = spec
        self.bots = list(bots)
        self.game = load_game(spec.game)
        self.codec = codec_for(spec.game)
        self._observation = Record(bot_pb2.DecideRequest, self.codec.field)
        self.state = state or self.game.new_game(len(bots), spec.seed, spec.options)
        self.wire_id = wire_id or secrets.token_hex(8)
        self.listeners = list(listeners)
        self.decision_listeners = list(decision_listeners)
        self.seats = [SeatStats(bank=spec.time_bank) for _ in bots]
        self.incidents: list[Incident] = []
        self.steps = 0
        self.round_trips = 0
        self._clock = clock
        self._recorder = RecordWriter(spec.record_path) if spec.record_path else None
        self._match_info_own = common_pb2.MatchInfo(
            game=spec.game,
            players=len(bots),
            bot_names=[bot.name for bot in bots],
            options=struct(spec.options),
            rules_hash=self.game.rules_hash(),
        ).SerializeToString(deterministic=True)
        """The match's own fields of its `MatchInfo`, serialized. The board, the same for
        every match of the game (serialized 2.6 kB for Jamaica, 15 kB for Black Fleet), is
        serialized once per process (`_board_record`) and joined to them when the info is
        sent: once per seat, and again only after a reconnect."""

    @property
    def match_info(self) -> common_pb2.MatchInfo:
        """What every seat is told about the match on its first request."""
        return common_pb2.MatchInfo.FromString(self._match_info_data())

    def _match_info_data(self) -> bytes:
        """The `MatchInfo`, serialized: its own fields, then the board's record (its field
        number is the highest, so these are the bytes of the whole message serialized)."""
        return self._match_info_own + _board_record(self.spec.game)

    @functools.cached_property
    def _policy_rng(self) -> random.Random:
        """The failure policy's generator, made only for a match that needs one (its state
        is 2.5 kB): seeded from the match's seed, so a fallback is reproducible."""
        return random.Random(f"{self.spec.seed}:policy")

    async def run(self) -> MatchReport:
        """Play the match to the end, record it, and tell every bot the result.

        Cancelled (Ctrl-C), the record is closed with a line saying the match was aborted.
        """
        if self._recorder:
            self._recorder.header(
                self.spec.game,
                len(self.bots),
                self.spec.seed,
                self.spec.options,
                [b.name for b in self.bots],
                self.spec.match_id,
                self.wire_id,
            )
            self._recorder.events(0, self.state.setup_events)
        report = None
        try:
            self._retire_absent()
            self._publish(self.state.setup_events)
            while (outcome := self.state.outcome()) is None:
                _raise_if_cancelling()
                if self.steps >= MAX_STEPS:
                    raise RuntimeError(f"match {self.spec.match_id} exceeded {MAX_STEPS} steps")
                await self._play_window(self.state.pending())
            report = self._report(outcome)
            if self._recorder:
                self._recorder.digest(self.steps, self.state.digest())
                self._recorder.result(
                    report.places,
                    report.scores,
                    report.forfeited,
                    [i.to_json() for i in self.incidents],
                )
        finally:
            if self._recorder:
                if report is None:
                    self._recorder.aborted(self.steps)
                self._recorder.close()
        await self._tell_match_over(report)
        return report

    def _retire_absent(self) -> None:
        """Seats whose bot is known to be gone (disqualified, never reached) are played by
        the policy from the start."""
        for index, bot in enumerate(self.bots):
            if bot.absent:
                self._retire(index, IncidentKind.UNREACHABLE, "", bot.absent, -1)

    async def _play_window(self, requests: list[Request]) -> None:
        """Ask one window: a whole SEALED window concurrently, otherwise the first request."""
        first = requests[0]
        if first.window is not Window.SEALED:
            self._apply(first, await self._answer(first))
            return
        batch = [r for r in requests if r.window_id == first.window_id]
        answers = await asyncio.gather(*(self._answer(request) for request in batch))
        for request, answer in zip(batch, answers, strict=True):
            self._apply(request, answer)

    def _apply(self, request: Request, answer: Answer) -> None:
        if self.decision_listeners:
            caused = (
                [
                    i
                    for i in self.incidents
                    if i.seat == request.seat and i.request_id == answer.request_id
                ]
                if answer.how == "incident"
                else []
            )
            for listener in self.decision_listeners:
                listener(self.steps + 1, request, answer, caused)
        events = self.state.apply(request.seat, answer.index)
        self.steps += 1
        if self._recorder:
            self._recorder.decision(
                self.steps,
                answer.request_id,
                request.seat,
                request.window_id,
                str(request.window),
                request.kind,
                answer.index,
                answer.latency_ms,
                answer.how,
            )
            self._recorder.events(self.steps, events)
            if self._recorder.wants_digest(self.steps):
                self._recorder.digest(self.steps, self.state.digest())
        self._publish(events)

    def _publish(self, events: Sequence[Event]) -> None:
        shared = [SharedEvent(event) for event in events]
        for index, seat in enumerate(self.seats):
            seat.unsent.extend((seat.asked, e) for e in shared if e.event.visible_to(index))
        for listener in self.listeners:
            listener(self.steps, events, self.state)

    async def _answer(self, request: Request) -> Answer:
        """The option to apply for `request`; a round trip only when there is a real choice
        or the request `must_ask` (its options depend on hidden information: a round trip
        whatever the seat holds, so timing tells nothing), and the bot has not declared
        auto-pass for the window's kind, its own public choice."""
        seat = self.seats[request.seat]
        if len(request.options) == 1 and not request.must_ask:
            return Answer(0, how="forced")
        if request.optional and request.window in self.bots[request.seat].auto_pass:
            return Answer(0, how="auto_pass")
        if seat.retired is not None or seat.forfeited:
            return Answer(
                fallback_index(self.spec.policy, request, self._policy_rng), how="forfeited"
            )
        seat.asked += 1
        request_id = str(seat.asked)
        window_id = seat.window_number(request.window_id)
        if seat.bank <= 0:
            index = fallback_index(self.spec.policy, request, self._policy_rng)
            self._retire(
                request.seat,
                IncidentKind.TIMEOUT,
                request_id,
                f"time bank exhausted: {IS_HUNG}",
                index,
            )
            return Answer(index, request_id, how="incident")
        return await self._ask(request, request_id, window_id, seat)

    async def _ask(
        self, request: Request, request_id: str, window_id: int, seat: SeatStats
    ) -> Answer:
        timeout = min(self.spec.deadline, seat.bank)
        message = self._request(request, request_id, window_id, seat, timeout)
        bot = self.bots[request.seat]
        async with bot.slot():
            started = self._clock()
            reply = await self._call(bot, message, timeout, started)
            latency = self._clock() - started
        seat.bank -= latency
        seat.latencies_ms.append(latency * 1000)
        self.round_trips += 1
        if isinstance(reply, bot_pb2.DecideResponse):
            failure = _check_reply(reply, request_id, len(request.options))
            if failure is None:
                seat.timeouts_in_row = seat.failed_in_row = 0
                if reply.resend_match_info:
                    seat.informed = False
                return Answer(reply.option_index, request_id, latency * 1000)
        else:
            kind, detail = reply
            if kind in DIAGNOSED and bot.diagnose:
                note = bot.diagnose(kind is IncidentKind.ILLEGAL)
                detail = "\n".join(filter(None, (detail, note)))
            failure = kind, detail
        index = self._incident(request, request_id, *failure)
        return Answer(index, request_id, latency * 1000, "incident")

    async def _call(
        self, bot: SeatBot, message: bytes, timeout: float, started: float
    ) -> bot_pb2.DecideResponse | tuple[IncidentKind, str]:
        """The bot's reply to `message` (a serialized `DecideRequest`), or the incident its
        failure is.

        A call the connection broke (a blip, or a process the launcher restarts) is asked
        once more, with the same request id, for what is left of its deadline: a bot back
        in time answers it and only time is lost; one that is not is a crash. A bot that
        could not be reached at all before the deadline is unreachable, not late.
        """
        try:
            return await bot.decide(message, timeout)
        except grpc.aio.AioRpcError as error:
            _raise_if_cancelled(error)
            if error.code() not in BROKEN:
                return _classify(error, bot.reached())
            broken = (IncidentKind.CRASH, f"the connection broke: {error.details()}")
        left = timeout - (self._clock() - started)
        if left <= 0.001:
            return broken
        try:
            return await bot.decide(_deadline(left) + message[len(_deadline(timeout)) :], left)
        except grpc.aio.AioRpcError as error:
            _raise_if_cancelled(error)
            back = error.code() not in BROKEN and bot.reached()
            return _classify(error, True) if back else broken

    def _request(
        self, request: Request, request_id: str, window_id: int, seat: SeatStats, timeout: float
    ) -> bytes:
        """The seat's `DecideRequest`, serialized: its deadline first (a call asked again
        writes its own over it), its own fields, then the parts serialized once and shared
        (`wire.assembly`): events, the match's info. One bytes object, all a waiting call
        holds."""
        head = bot_pb2.DecideRequest(
            request_id=request_id,
            match_id=self.wire_id,
            seat=request.seat,
            window_id=window_id,
            window=to_window_kind(request.window),
            kind=request.kind,
            prompt=request.prompt,
            optional=request.optional,
            options=option_fields(self.codec, request.options),
            time_bank_ms=int(max(seat.bank, 0) * 1000),
        )
        observation = self.codec.observation_pb(self.state.view(request.seat))
        parts = [
            _deadline(timeout),
            head.SerializeToString(deterministic=True),
            self._observation(observation.SerializeToString(deterministic=True)),
            self._unsent_events(request.seat, _EVENTS),
        ]
        if not seat.informed:
            parts.append(_MATCH_INFO(self._match_info_data()))
            seat.informed = True
        return b"".join(parts)

    def _unsent_events(self, seat: int, events: Record) -> bytes:
        """The `events` records (of a `DecideRequest` or `MatchOverRequest`) of the events
        `seat` may see since its last request; they are forgotten."""
        unsent = self.seats[seat].unsent
        data = told(events, unsent)
        unsent.clear()
        return data

    def _incident(self, request: Request, request_id: str, kind: IncidentKind, detail: str) -> int:
        """Record a failed answer and return the option the policy applies instead. A seat
        whose answers keep failing is retired: hung after `HUNG_AFTER` timeouts in a row,
        broken after `BROKEN_AFTER` failed answers in a row or, once asked
        `BROKEN_SHARE_FROM` times, when more than half of its answers failed."""
        seat = self.seats[request.seat]
        index = fallback_index(self.spec.policy, request, self._policy_rng)
        seat.failed += 1
        seat.failed_in_row += 1
        seat.timeouts_in_row += kind is IncidentKind.TIMEOUT
        why = detail if kind in RETIRING else _failing(seat)
        if why is not None:
            self._retire(request.seat, kind, request_id, why, index)
            return index
        if self.spec.policy is FailurePolicy.FORFEIT:
            seat.forfeited = True
        limit = REPORT_LIMIT if kind in DIAGNOSED else DETAIL_LIMIT
        self.incidents.append(
            Incident(request_id, request.seat, kind, _short(detail, limit, lines=True), index)
        )
        return index

    def _retire(
        self, seat_index: int, kind: IncidentKind, request_id: str, detail: str, index: int
    ) -> None:
        """From now on the policy plays this seat, and it is placed last."""
        self.seats[seat_index].retired = kind
        limit = (REPORT_LIMIT if kind in DIAGNOSED else DETAIL_LIMIT) - len(RETIRED) - 2
        self.incidents.append(
            Incident(
                request_id,
                seat_index,
                kind,
                f"{_short(detail, limit, lines=True)}; {RETIRED}",
                max(index, 0),
            )
        )

    def _report(self, outcome: Outcome) -> MatchReport:
        forfeited = [
            i for i, seat in enumerate(self.seats) if seat.forfeited or seat.retired is not None
        ]
        places = list(outcome.places)
        if forfeited:
            keys = [(i not in forfeited, -place) for i, place in enumerate(places)]
            places = list(Outcome.from_ranking(keys, list(outcome.scores)).places)
        return MatchReport(
            self.spec,
            [b.name for b in self.bots],
            places,
            list(outcome.scores),
            forfeited,
            self.incidents,
            [seat.latencies_ms.tolist() for seat in self.seats],
            self.steps,
            self.round_trips,
            self.wire_id,
        )

    async def _tell_match_over(self, report: MatchReport) -> None:
        """Tell each live seat the public result and its own incidents."""

        async def tell(seat: int) -> None:
            result = report.result_pb({seat}, self.wire_id)
            message = bot_pb2.MatchOverRequest(seat=seat, result=result)
            message.MergeFromString(self._unsent_events(seat, _OVER_EVENTS))
            bot = self.bots[seat]
            with contextlib.suppress(grpc.aio.AioRpcError):  # the result stands regardless
                async with bot.slot():
                    await bot.match_over(message, timeout=self.spec.deadline)

        live = [seat for seat, stats in enumerate(self.seats) if stats.retired is None]
        await asyncio.gather(*(tell(seat) for seat in live))


_EVENTS = Record(bot_pb2.DecideRequest, "events")
_OVER_EVENTS = Record(bot_pb2.MatchOverRequest, "events")
_MATCH_INFO = Record(bot_pb2.DecideRequest, "match_info")
_DEADLINE = Record(bot_pb2.DecideRequest, "deadline_ms")


def _deadline(seconds: float) -> bytes:
    """The `deadline_ms` record of a `DecideRequest`."""
    return _DEADLINE(int(seconds * 1000))


def _failing(seat: SeatStats) -> str | None:
    """Why a seat whose last answer failed is hung or broken; None while it is neither."""
    if seat.timeouts_in_row >= HUNG_AFTER:
        return f"{HUNG_AFTER} timeouts in a row: {IS_HUNG}"
    if seat.failed_in_row >= BROKEN_AFTER:
        return f"{BROKEN_AFTER} failed answers in a row: {IS_BROKEN}"
    if seat.asked >= BROKEN_SHARE_FROM and 2 * seat.failed > seat.asked:
        return f"{seat.failed} of its {seat.asked} answers failed: {IS_BROKEN}"
    return None


def retired_failing(detail: str) -> bool:
    """Whether an incident's detail is that of a seat retired because its answers kept
    failing (hung or broken), rather than because its bot crashed or was unreachable."""
    return detail.endswith((f"{IS_HUNG}; {RETIRED}", f"{IS_BROKEN}; {RETIRED}"))


@functools.cache
def _board_record(game: str) -> bytes:
    """The record of the static board of `game` in a serialized `MatchInfo`; built once
    per process and shared by its matches."""
    codec = codec_for(game)
    board = codec.board_pb(load_game(game).static_info()).SerializeToString(deterministic=True)
    return Record(common_pb2.MatchInfo, codec.field)(board)


def _short(text: str, limit: int = DETAIL_LIMIT, lines: bool = False) -> str:
    """`text`, which may hold a bot's strings, with its control characters (but newlines,
    with `lines`) escaped and cut to `limit` characters."""
    text = printable(text, lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _raise_if_cancelled(error: grpc.aio.AioRpcError) -> None:
    """A call cut because the match itself is being cancelled (Ctrl-C) can end in a
    CANCELLED error rather than the cancellation: raise the cancellation, so the match
    stops instead of charging the bot and playing on."""
    if _cancelling():
        raise asyncio.CancelledError from error


def _raise_if_cancelling() -> None:
    """Stop a match whose task was cancelled even if some await on the way swallowed the
    cancellation (a call completing as it was cancelled): the request stays counted."""
    if _cancelling():
        raise asyncio.CancelledError


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


BROKEN = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED})
"""The codes of a call the connection broke: UNAVAILABLE, or CANCELLED when the bot's
server stopped while answering (the referee's own cancellation is raised before)."""


def _classify(error: grpc.aio.AioRpcError, reached: bool) -> tuple[IncidentKind, str]:
    """The incident a failed call is. The call waits for a reconnect until its deadline, so
    a broken call (`BROKEN`) means the connection broke during the call: the bot crashed;
    and a deadline passed with no connection to the bot (`reached` false) means it was
    unreachable."""
    code = error.code()
    if code is grpc.StatusCode.DEADLINE_EXCEEDED and not reached:
        return IncidentKind.UNREACHABLE, "no connection to the bot before the deadline"
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return IncidentKind.TIMEOUT, "no answer before the deadline"
    if code in BROKEN:
        return IncidentKind.CRASH, f"the connection broke: {error.details()}"
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        return IncidentKind.OVERSIZE, f"the answer is too large: {error.details()}"
    return IncidentKind.ILLEGAL, f"the call failed: {code.name}: {error.details()}"


def _check_reply(
    reply: bot_pb2.DecideResponse, request_id: str, n_options: int
) -> tuple[IncidentKind, str] | None:
    if reply.request_id != request_id:
        return (
            IncidentKind.STALE,
            f"answered request '{_short(reply.request_id, 40)}', asked {request_id!r}",
        )
    if reply.option_index >= n_options:
        return IncidentKind.ILLEGAL, f"option {reply.option_index} of {n_options}"
    return None


def checked_options(game_name: str, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's options resolved and tried on a new game; ValueError saying what is wrong
    (unknown name, bad value, wrong player count) before anything is started or stored."""
    game = load_game(game_name)
    game.check_players(players)
    resolved = game.resolve_options(options)
    try:
        game.new_game(players, 0, resolved)
    except (TypeError, OverflowError) as error:
        raise ValueError(f"invalid {game_name} options {options}: {error}") from None
    return resolved


async def run_match(
    spec: MatchSpec,
    bots: Sequence[SeatBot],
    listeners: Sequence[Listener] = (),
    decision_listeners: Sequence[DecisionListener] = (),
) -> MatchReport:
    """Play one match between connected bots (seat i is `bots[i]`)."""
    return await Match(spec, bots, listeners, decision_listeners=decision_listeners).run()
