"""`RefereeService`: create matches between running bots, list them, and watch them live.

Watchers see the public view and public events; a watcher presenting the admin token the
server printed at start sees everything. Views are computed when a frame is sent, never
stored, so a match nobody watches costs nothing extra.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from google.protobuf import json_format

from admiralty.games import GAMES, Event, GameState
from admiralty.referee.clients import BotClient
from admiralty.referee.match import Match, MatchReport, MatchSpec
from admiralty.referee.policy import FailurePolicy
from admiralty.wire import event_to_pb, struct
from admiralty_sdk.bot import bind
from admiralty_sdk.v1 import common_pb2, referee_pb2, referee_pb2_grpc

DEFAULT_DEADLINE_MS = 2000
DEFAULT_TIME_BANK_MS = 60_000
_POLICIES = {
    referee_pb2.FAILURE_POLICY_UNSPECIFIED: FailurePolicy.DEFAULT,
    referee_pb2.FAILURE_POLICY_DEFAULT: FailurePolicy.DEFAULT,
    referee_pb2.FAILURE_POLICY_RANDOM: FailurePolicy.RANDOM,
    referee_pb2.FAILURE_POLICY_FORFEIT: FailurePolicy.FORFEIT,
}


@dataclass
class MatchHandle:
    """A match the server runs, with what its watchers need."""

    spec: MatchSpec
    bot_names: list[str] = field(default_factory=list)
    status: int = referee_pb2.MATCH_STATUS_STARTING
    match: Match | None = None
    report: MatchReport | None = None
    error: str = ""
    events: list[tuple[int, Event]] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def on_step(self, step: int, events: Sequence[Event], state: GameState) -> None:
        self.events.extend((step, event) for event in events)
        asyncio.get_running_loop().create_task(self._notify())

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    @property
    def finished(self) -> bool:
        return self.status in (referee_pb2.MATCH_STATUS_FINISHED, referee_pb2.MATCH_STATUS_FAILED)

    def summary(self) -> referee_pb2.MatchSummary:
        message = referee_pb2.MatchSummary(
            match_id=self.spec.match_id, game=self.spec.game, status=self.status,
            bot_names=self.bot_names, seed=self.spec.seed,
            steps=self.match.steps if self.match else 0, error=self.error)
        if self.report is not None:
            message.result.CopyFrom(self.report.result_pb())
        return message


class RefereeServicer(referee_pb2_grpc.RefereeServiceServicer):
    """Runs matches in this process's event loop."""

    def __init__(self, admin_token: str, record_dir: Path | None = None):
        self.admin_token = admin_token
        self.record_dir = record_dir
        self.matches: dict[str, MatchHandle] = {}
        self._tasks: set[asyncio.Task] = set()

    async def CreateMatch(self, request, context):
        if request.game not in GAMES:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"unknown game {request.game!r}; known: {', '.join(GAMES)}")
        seed = request.seed or secrets.randbits(32)
        match_id = f"{request.game}-{secrets.token_hex(4)}"
        spec = MatchSpec(
            match_id=match_id, game=request.game, seed=seed,
            options=json_format.MessageToDict(request.options),
            deadline=(request.deadline_ms or DEFAULT_DEADLINE_MS) / 1000,
            time_bank=(request.time_bank_ms or DEFAULT_TIME_BANK_MS) / 1000,
            policy=_POLICIES[request.policy],
            record_path=self.record_dir / f"{match_id}.jsonl.gz" if self.record_dir else None)
        handle = MatchHandle(spec)
        self.matches[match_id] = handle
        task = asyncio.get_running_loop().create_task(self._run(handle, list(request.bots)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return referee_pb2.CreateMatchResponse(match_id=match_id, seed=seed)

    async def _run(self, handle: MatchHandle, addresses: list[str]) -> None:
        clients = [BotClient(address) for address in addresses]
        try:
            await asyncio.gather(*(client.hello() for client in clients))
            handle.bot_names = [client.name for client in clients]
            handle.match = Match(handle.spec, clients, [handle.on_step])
            handle.status = referee_pb2.MATCH_STATUS_RUNNING
            handle.report = await handle.match.run()
            handle.status = referee_pb2.MATCH_STATUS_FINISHED
        except Exception as error:  # a failed match is reported, never crashes the server
            handle.status = referee_pb2.MATCH_STATUS_FAILED
            handle.error = f"{type(error).__name__}: {error}"
        finally:
            await asyncio.gather(*(client.close() for client in clients))
            await handle._notify()

    def _handle(self, match_id: str) -> MatchHandle | None:
        return self.matches.get(match_id)

    async def GetMatch(self, request, context):
        handle = self._handle(request.match_id)
        if handle is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        return referee_pb2.GetMatchResponse(match=handle.summary())

    async def ListMatches(self, request, context):
        return referee_pb2.ListMatchesResponse(
            matches=[handle.summary() for handle in self.matches.values()])

    async def Watch(self, request, context):
        handle = self._handle(request.match_id)
        if handle is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id!r}")
        omniscient = bool(request.token) and secrets.compare_digest(
            request.token, self.admin_token)
        if request.token and not omniscient:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token")
        async for frame in _frames(handle, omniscient):
            yield frame


async def _frames(handle: MatchHandle, omniscient: bool):
    """The frames of one watcher: match facts, then every visible event, then the result."""
    async with handle.changed:
        await handle.changed.wait_for(lambda: handle.match is not None or handle.finished)
    if handle.match is None:
        result = common_pb2.MatchResult(match_id=handle.spec.match_id)
        yield referee_pb2.WatchResponse(result=result)
        return
    sent = 0
    yield referee_pb2.WatchResponse(match_info=handle.match.match_info,
                                    view=_view(handle.match.state, omniscient))
    while True:
        async with handle.changed:
            await handle.changed.wait_for(
                lambda seen=sent: len(handle.events) > seen or handle.finished)
        fresh = handle.events[sent:]
        sent += len(fresh)
        visible = [(step, e) for step, e in fresh if omniscient or e.visible_to(None)]
        for position, (step, event) in enumerate(visible):
            frame = referee_pb2.WatchResponse(event=event_to_pb(event, step))
            if position == len(visible) - 1:
                frame.view.CopyFrom(_view(handle.match.state, omniscient))
            yield frame
        if handle.finished and sent == len(handle.events):
            break
    if handle.report is not None:
        yield referee_pb2.WatchResponse(result=handle.report.result_pb())


def _view(state: GameState, omniscient: bool):
    return struct(state.view(None) if not omniscient else _omniscient_view(state))


def _omniscient_view(state: GameState) -> dict:
    """The public view and every seat's own, for an authorised watcher."""
    return {"public": state.view(None),
            "by_seat": [state.view(seat) for seat in range(state.players)]}


async def serve_referee(host: str, port: int, admin_token: str,
                        record_dir: Path | None = None) -> grpc.aio.Server:
    """Start the referee server; the caller awaits `wait_for_termination()`."""
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    referee_pb2_grpc.add_RefereeServiceServicer_to_server(
        RefereeServicer(admin_token, record_dir), server)
    if not bind(server, host, port):
        raise OSError(f"cannot listen on {host}:{port}: the port is in use or not allowed")
    await server.start()
    return server
