"""`RefereeService`: create matches between running bots, list them, and watch them live.

Every RPC but `Watch` is the operator's and needs the admin token the server printed at
start (`authorization: Bearer <token>` metadata). `Watch` is open: a watcher sees the public
view and public events, counted in public events only; one presenting the token sees
everything, or, asking for a seat, what that seat saw (its requests re-derived from the
decisions kept, as a replay does). Views are computed when a frame is sent, never stored,
so a match nobody watches costs nothing extra. The server keeps every running match and the newest
`keep_finished` finished ones, and runs at most `max_running` at once.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

from admiralty.games import GAMES, Event, GameState, Request, load_game
from admiralty.referee.clients import MAX_REPLY_BYTES, BotClient, HelloError, SeatBot
from admiralty.referee.match import (
    Answer,
    Incident,
    Match,
    MatchReport,
    MatchSpec,
    checked_options,
)
from admiralty.referee.policy import FailurePolicy, IncidentKind
from admiralty.referee.timeline import Decision, Frame, frame_after, step_frame
from admiralty.wire import event_to_pb, struct
from admiralty_sdk.bot import bind
from admiralty_sdk.v1 import common_pb2, referee_pb2, referee_pb2_grpc

DEFAULT_DEADLINE_MS = 2000
DEFAULT_TIME_BANK_MS = 60_000
MAX_DEADLINE_MS = 600_000
MAX_TIME_BANK_MS = 86_400_000
MAX_ADDRESS = 256
PAGE_SIZE, MAX_PAGE_SIZE = 50, 500
MAX_CONCURRENT_RPCS = 1000
"""Calls served at once (watchers included); more are refused RESOURCE_EXHAUSTED, so open
Watch streams cannot pile up without bound."""
PUBLIC_METHODS = frozenset({"/admiralty.v1.RefereeService/Watch"})
POLICIES = {
    referee_pb2.FAILURE_POLICY_UNSPECIFIED: FailurePolicy.DEFAULT,
    referee_pb2.FAILURE_POLICY_DEFAULT: FailurePolicy.DEFAULT,
    referee_pb2.FAILURE_POLICY_RANDOM: FailurePolicy.RANDOM,
    referee_pb2.FAILURE_POLICY_FORFEIT: FailurePolicy.FORFEIT,
}


@dataclass
class MatchHandle:
    """A match the server runs, with what its watchers need."""

    spec: MatchSpec
    ordinal: int
    bot_names: list[str] = field(default_factory=list)
    status: referee_pb2.MatchStatus = referee_pb2.MATCH_STATUS_STARTING
    match: Match | None = None
    report: MatchReport | None = None
    error: str = ""
    events: list[tuple[int, Event]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    """Every decision applied, as a record's line (seat, index, latency, how) with its
    incidents: what a watcher of one seat re-runs the match from."""
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def on_step(self, step: int, events: Sequence[Event], state: GameState) -> None:
        self.events.extend((step, event) for event in events)
        asyncio.get_running_loop().create_task(self._notify())

    def on_decision(
        self, step: int, request: Request, answer: Answer, incidents: Sequence[Incident]
    ) -> None:
        """Kept before the decision's events are; its step's listener notifies."""
        self.decisions.append(
            {
                "seat": request.seat,
                "index": answer.index,
                "latency_ms": answer.latency_ms,
                "how": answer.how,
                "incidents": [incident.to_json() for incident in incidents],
            }
        )

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    @property
    def finished(self) -> bool:
        return self.status in (referee_pb2.MATCH_STATUS_FINISHED, referee_pb2.MATCH_STATUS_FAILED)

    def more_events(self, seen: int) -> bool:
        """Whether events beyond the first `seen` are kept, or the match has finished: what
        a watcher waits for."""
        return len(self.events) > seen or self.finished

    def more_decisions(self, seen: int) -> bool:
        """Whether decisions beyond the first `seen` are kept, or the match has finished."""
        return len(self.decisions) > seen or self.finished

    def summary(self, incidents: bool = True) -> referee_pb2.MatchSummary:
        """What the operator sees of the match: the seed and record path included. A list
        leaves the incidents out: a bot failing every decision makes thousands, and a page
        of such matches would outgrow what a client accepts."""
        message = referee_pb2.MatchSummary(
            match_id=self.spec.match_id,
            game=self.spec.game,
            status=self.status,
            bot_names=self.bot_names,
            master_seed=str(self.spec.seed),
            steps=self.match.steps if self.match else 0,
            error=self.error,
            record_path=str(self.spec.record_path or ""),
        )
        if self.report is not None:
            message.result.CopyFrom(self.report.result_pb(None if incidents else ()))
        return message


def same_secret(given: str | bytes, expected: str) -> bool:
    """Whether `given` is `expected`, in constant time. Compared as UTF-8 bytes: a str with
    a non-ASCII character (a metadata value gRPC decoded, a WatchRequest's token) would make
    `compare_digest` raise, and the call fail UNKNOWN instead of PERMISSION_DENIED."""
    given_bytes = given if isinstance(given, bytes) else given.encode("utf-8", "surrogatepass")
    return secrets.compare_digest(given_bytes, expected.encode())


class TokenInterceptor(grpc.aio.ServerInterceptor):
    """Refuses every RPC but the `public` ones unless it carries the admin token. A server
    carrying another service with keys of its own (the arena's) names its methods public."""

    def __init__(self, token: str, public: frozenset[str] = PUBLIC_METHODS):
        self._expected = f"Bearer {token}"
        self._public = public

    async def intercept_service(self, continuation, details):
        if details.method in self._public:
            return await continuation(details)
        given = dict(details.invocation_metadata or ()).get("authorization")
        if given is not None and same_secret(given, self._expected):
            return await continuation(details)
        code, message = (
            (
                grpc.StatusCode.UNAUTHENTICATED,
                "this call needs the admin token: metadata 'authorization: Bearer <token>'",
            )
            if given is None
            else (grpc.StatusCode.PERMISSION_DENIED, "wrong admin token")
        )

        async def deny(request, context):
            await context.abort(code, message)

        return grpc.unary_unary_rpc_method_handler(deny)


class RefereeServicer(referee_pb2_grpc.RefereeServiceServicer):
    """Runs matches in this process's event loop: those `CreateMatch` asks for, unless
    `creates` is False (an arena, whose ladder starts them all), and those handed to
    `play`."""

    def __init__(
        self,
        admin_token: str,
        record_dir: Path | None = None,
        keep_finished: int = 1000,
        max_running: int = 64,
        creates: bool = True,
    ):
        self.admin_token = admin_token
        self.record_dir = record_dir
        self.keep_finished = keep_finished
        self.max_running = max_running
        self.creates = creates
        self.matches: OrderedDict[str, MatchHandle] = OrderedDict()
        self._created = 0
        self._tasks: set[asyncio.Task] = set()

    async def CreateMatch(
        self, request: referee_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ):
        if not self.creates:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                "this server is an arena: its ladder starts every match",
            )
        try:
            spec = self._spec(request)
        except ValueError as error:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        if sum(not h.finished for h in self.matches.values()) >= self.max_running:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{self.max_running} matches are running; try again later",
            )
        handle = self._register(spec)
        task = asyncio.get_running_loop().create_task(self._run(handle, list(request.bots)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return referee_pb2.CreateMatchResponse(match_id=spec.match_id, master_seed=str(spec.seed))

    def _spec(self, request: referee_pb2.CreateMatchRequest) -> MatchSpec:
        """The match the request asks for; ValueError naming the first thing wrong."""
        if request.game not in GAMES:
            raise ValueError(f"unknown game {request.game[:40]!r}; known: {', '.join(GAMES)}")
        for address in request.bots:
            check_address(address)
        options = checked_options(
            request.game,
            len(request.bots),
            _whole_numbers(json_format.MessageToDict(request.options)),
        )
        if request.policy not in POLICIES:
            raise ValueError(f"unknown failure policy {request.policy}")
        if request.deadline_ms > MAX_DEADLINE_MS or request.time_bank_ms > MAX_TIME_BANK_MS:
            raise ValueError(
                f"deadline_ms is at most {MAX_DEADLINE_MS}, time_bank_ms at most {MAX_TIME_BANK_MS}"
            )
        match_id = f"{request.game}-{secrets.token_hex(8)}"
        return MatchSpec(
            match_id=match_id,
            game=request.game,
            seed=request.seed or secrets.randbits(128),
            options=options,
            deadline=(request.deadline_ms or DEFAULT_DEADLINE_MS) / 1000,
            time_bank=(request.time_bank_ms or DEFAULT_TIME_BANK_MS) / 1000,
            policy=POLICIES[request.policy],
            record_path=self.record_dir / f"{match_id}.jsonl.gz" if self.record_dir else None,
        )

    def _register(self, spec: MatchSpec) -> MatchHandle:
        self._created += 1
        handle = MatchHandle(spec, self._created)
        self.matches[spec.match_id] = handle
        self._forget_old()
        return handle

    def _forget_old(self) -> None:
        """Drop the oldest finished matches beyond `keep_finished`."""
        finished = [mid for mid, handle in self.matches.items() if handle.finished]
        for match_id in finished[: max(0, len(finished) - self.keep_finished)]:
            del self.matches[match_id]

    async def _run(self, handle: MatchHandle, addresses: list[str]) -> None:
        clients = [BotClient(address) for address in addresses]
        try:
            await asyncio.gather(*(client.hello() for client in clients))
            await _referee(handle, clients)
        except Exception as error:  # a failed match is reported, never crashes the server
            handle.status = referee_pb2.MATCH_STATUS_FAILED
            handle.error = _failure(error)
        finally:
            await asyncio.gather(*(client.close() for client in clients))
            await self._settled(handle)

    async def play(self, spec: MatchSpec, bots: Sequence[SeatBot]) -> MatchReport:
        """Run a match this server did not create (one of the arena's), listed and watched
        as its own; its report, or the error that failed it (raised again)."""
        handle = self._register(spec)
        try:
            return await _referee(handle, bots)
        except BaseException as error:
            handle.status = referee_pb2.MATCH_STATUS_FAILED
            handle.error = _failure(error) if isinstance(error, Exception) else "stopped"
            raise
        finally:
            await self._settled(handle)

    async def _settled(self, handle: MatchHandle) -> None:
        """The match ended: its watchers are told, and old matches forgotten."""
        await handle._notify()
        self._forget_old()

    async def GetMatch(
        self, request: referee_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ):
        handle = self.matches.get(request.match_id)
        if handle is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id[:80]!r}")
        return referee_pb2.GetMatchResponse(match=handle.summary())

    async def ListMatches(
        self, request: referee_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext
    ):
        size = min(request.page_size or PAGE_SIZE, MAX_PAGE_SIZE)
        try:
            start = int(request.page_token or 0)
        except ValueError:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "invalid page_token")
        page = [h for h in self.matches.values() if h.ordinal >= start][: size + 1]
        more = len(page) > size
        return referee_pb2.ListMatchesResponse(
            matches=[handle.summary(incidents=False) for handle in page[:size]],
            next_page_token=str(page[size].ordinal) if more else "",
        )

    async def Watch(self, request: referee_pb2.WatchRequest, context: grpc.aio.ServicerContext):
        handle = self.matches.get(request.match_id)
        if handle is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id[:80]!r}")
        omniscient = bool(request.token) and same_secret(request.token, self.admin_token)
        if request.token and not omniscient:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token")
        if not request.HasField("seat"):
            async for frame in _frames(handle, omniscient):
                yield frame
            return
        if not omniscient:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED, "watching as a seat needs the admin token"
            )
        async with handle.changed:
            await handle.changed.wait_for(lambda: handle.match is not None or handle.finished)
        if handle.match is not None and request.seat >= handle.match.state.players:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"the match has seats 0 to {handle.match.state.players - 1}",
            )
        async for frame in _seat_frames(handle, request.seat):
            yield frame


async def _referee(handle: MatchHandle, bots: Sequence[SeatBot]) -> MatchReport:
    """Play `handle`'s match between `bots` (greeted already), keeping what its watchers
    need; its report."""
    handle.bot_names = [bot.name for bot in bots]
    handle.match = Match(
        handle.spec, bots, [handle.on_step], decision_listeners=[handle.on_decision]
    )
    handle.status = referee_pb2.MATCH_STATUS_RUNNING
    handle.report = await handle.match.run()
    handle.status = referee_pb2.MATCH_STATUS_FINISHED
    return handle.report


def _whole_numbers(value):
    """A Struct holds every number as a double: whole ones are ints again (`round_cap=50`
    arrives as 50.0); a fraction stays a float, for the game's options to refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


def check_address(address: str) -> None:
    """ValueError unless `address` is `host:port` (or `grpc://host:port`) of sane length."""
    host, _, port = address.removeprefix("grpc://").rpartition(":")
    if not host or len(address) > MAX_ADDRESS or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bot address {address[:80]!r} is not host:port")


def _failure(error: Exception) -> str:
    if isinstance(error, grpc.aio.AioRpcError):
        if error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED:  # it answered, far too much
            return f"a bot was refused: its Hello is over {MAX_REPLY_BYTES:,} bytes"
        return f"a bot did not answer Hello: {error.code().name}"
    if isinstance(error, HelloError):
        return f"a bot was refused: {error}"
    return f"{type(error).__name__}: {str(error)[:200]}"


async def _frames(handle: MatchHandle, omniscient: bool):
    """The frames of one watcher: match facts, then every visible event, then the result.

    A public watcher's events are numbered by the public events before them; only an
    omniscient one sees the engine's step count, which counts hidden decisions too.
    """
    async with handle.changed:
        await handle.changed.wait_for(lambda: handle.match is not None or handle.finished)
    if handle.match is None:
        result = common_pb2.MatchResult(match_id=handle.spec.match_id)
        yield referee_pb2.WatchResponse(result=result)
        return
    sent = shown = 0
    yield referee_pb2.WatchResponse(
        match_info=handle.match.match_info, view=_view(handle.match.state, omniscient)
    )
    while True:
        async with handle.changed:
            await handle.changed.wait_for(partial(handle.more_events, sent))
        fresh = handle.events[sent:]
        sent += len(fresh)
        visible = [(step, e) for step, e in fresh if omniscient or e.visible_to(None)]
        for position, (step, event) in enumerate(visible):
            frame = referee_pb2.WatchResponse(
                event=event_to_pb(event, step if omniscient else shown)
            )
            shown += 1
            if position == len(visible) - 1:
                frame.view.CopyFrom(_view(handle.match.state, omniscient))
            yield frame
        if handle.finished and sent == len(handle.events):
            break
    if handle.report is not None:
        yield referee_pb2.WatchResponse(result=handle.report.result_pb(None if omniscient else ()))


async def _seat_frames(handle: MatchHandle, seat: int):
    """The frames of one seat's watcher: match facts and the seat's view, then, step by
    step, the seat's decision and the events it may see, then the result with its own
    incidents. The watcher re-runs the match on an engine of its own from the decisions
    (as a replay does), so the server keeps a few numbers per decision, and the seat sees
    only what `view(seat)` and `visible_to(seat)` let through."""
    if handle.match is None:
        yield referee_pb2.WatchResponse(
            result=common_pb2.MatchResult(match_id=handle.spec.match_id)
        )
        return
    spec = handle.spec
    state = load_game(spec.game).new_game(handle.match.state.players, spec.seed, spec.options)
    yield referee_pb2.WatchResponse(
        match_info=handle.match.match_info, view=struct(state.view(seat))
    )
    for frame in _frame_pb(frame_after(0, state.setup_events, state, seat)):
        yield frame
    done = 0
    while True:
        async with handle.changed:
            await handle.changed.wait_for(partial(handle.more_decisions, done))
        for line in handle.decisions[done:]:
            done += 1
            for frame in _frame_pb(step_frame(state, done, line, seat, line["incidents"])):
                yield frame
        if handle.finished and done == len(handle.decisions):
            break
    if handle.report is not None:
        yield referee_pb2.WatchResponse(result=handle.report.result_pb({seat}))


def _frame_pb(frame: Frame) -> list[referee_pb2.WatchResponse]:
    """One step as Watch frames: the seat's decision, then its events, the seat's view on
    the last of them (none when the seat saw nothing of the step)."""
    frames = (
        [referee_pb2.WatchResponse(decision=_decision_pb(frame.decision, frame.incidents))]
        if frame.decision is not None
        else []
    )
    frames += [
        referee_pb2.WatchResponse(
            event=event_to_pb(Event(event["kind"], event["data"]), frame.step)
        )
        for event in frame.events
    ]
    if frames:
        frames[-1].view.CopyFrom(struct(frame.view))
    return frames


def _decision_pb(
    decision: Decision, incidents: Sequence[Mapping[str, Any]]
) -> referee_pb2.SeatDecision:
    return referee_pb2.SeatDecision(
        step=decision.step,
        kind=decision.kind,
        prompt=decision.prompt,
        options=[
            common_pb2.Option(index=i, key=key, label=label)
            for i, (key, label) in enumerate(decision.options)
        ],
        chosen=decision.chosen,
        latency_ms=decision.latency_ms,
        how=decision.how,
        incidents=[
            Incident(
                i["request_id"], i["seat"], IncidentKind(i["kind"]), i["detail"], i["applied_index"]
            ).pb()
            for i in incidents
        ],
    )


def _view(state: GameState, omniscient: bool):
    return struct(state.view(None) if not omniscient else _omniscient_view(state))


def _omniscient_view(state: GameState) -> dict:
    """The public view and every seat's own, for an authorised watcher."""
    return {
        "public": state.view(None),
        "by_seat": [state.view(seat) for seat in range(state.players)],
    }


async def serve_referee(
    host: str,
    port: int,
    admin_token: str,
    record_dir: Path | None = None,
    tls: tuple[bytes, bytes] | None = None,
    keep_finished: int = 1000,
) -> grpc.aio.Server:
    """Start the referee server, over TLS when `tls` is (private key, certificate chain),
    remembering the newest `keep_finished` finished matches; the caller stops it."""
    server = grpc.aio.server(
        options=[("grpc.so_reuseport", 0)],
        maximum_concurrent_rpcs=MAX_CONCURRENT_RPCS,
        interceptors=[TokenInterceptor(admin_token)],
    )
    referee_pb2_grpc.add_RefereeServiceServicer_to_server(
        RefereeServicer(admin_token, record_dir, keep_finished), server
    )
    credentials = grpc.ssl_server_credentials([tls]) if tls else None
    if not bind(server, host, port, credentials):
        raise OSError(
            f"cannot listen on {host}:{port}: the port is in use or not allowed, or "
            "the address is not this machine's"
        )
    await server.start()
    return server
