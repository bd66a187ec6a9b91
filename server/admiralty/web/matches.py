"""The match pages: a recorded match in the viewer, its frames as JSON, and a served
referee's matches watched live (Watch relayed as server-sent events).

Ids in URLs are checked before any file is touched: a tournament name or match id is one
`NAME` (no slash, no leading dot), an arena match a number, and the record must resolve
inside the records folder.
A seat's eye view is the operator's only; a spectator gets the public frames, and the
referee's admin token goes only into the Watch request, never into a page or a URL.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from admiralty.games import IllegalAction, Viewer
from admiralty.referee.record import RecordError
from admiralty.referee.remote import referee_channel, remote_referee
from admiralty.referee.timeline import NoSuchSeat
from admiralty.text import display_names, printable
from admiralty.web.auth import is_operator
from admiralty.web.config import WebConfig
from admiralty.web.frames import LiveFrames, Replay, replay
from admiralty.web.templating import templates
from admiralty_sdk.v1 import referee_pb2, referee_pb2_grpc

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
"""A tournament name or match id as URLs take them."""
CHUNK = 50
"""Frames the viewer asks for at a time: a long Black Fleet match draws 50 in ~0.2 s."""
MAX_COUNT = 200
"""The most frames one request gets, however many it asks for."""
KEEPALIVE = 15.0
"""Seconds of silence after which a live stream sends a comment, so proxies keep it open."""
WATCHERS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="watch")
"""Threads reading Watch streams: each live viewer holds one while it waits for a frame."""
UNREADABLE = (RecordError, ValueError, KeyError, TypeError, IllegalAction)


@dataclass(frozen=True)
class Located:
    """Where a recorded match's viewer finds it."""

    records: Path
    """The records folder: the record must resolve inside it."""
    record: str
    """The record's path in the folder."""
    api: str
    """The address its frames and log are under."""
    back: str
    """The page listing it."""
    back_label: str
    """That link's words: the tournament, the arena."""


Locate = Callable[[Request], Located]
"""The match a request names, its ids checked (404 if they are not names)."""


def recorded_routes(page: str, api: str, locate: Locate) -> list[BaseRoute]:
    """A recorded match in the viewer at `page`, its frames and log under `api`: the same
    page and API shape wherever matches are recorded."""

    async def match_page(request: Request) -> Response:
        where = locate(request)
        seat = _seat(request)
        loaded = await _load(where, seat)
        first = await run_in_threadpool(loaded.frame, 0)
        query = f"?seat={seat}" if seat is not None else ""
        return templates.TemplateResponse(
            request,
            "match.html",
            {
                "header": loaded.header(),
                "first": first,
                "source": "api",
                "frames_url": f"{where.api}/frames{query}",
                "log_url": f"{where.api}/log{query}",
                "back": where.back,
                "back_label": where.back_label,
                "can_seat": is_operator(request),
            },
        )

    async def frames_api(request: Request) -> Response:
        where = locate(request)
        seat = _seat(request)
        start, count = (
            query_number(request, "start", 0),
            min(query_number(request, "count", CHUNK), MAX_COUNT),
        )
        if count < 1:
            raise HTTPException(400, "count must be at least 1.")
        loaded = await _load(where, seat)
        if start > len(loaded):
            raise HTTPException(400, f"start is past the last frame ({len(loaded) - 1}).")
        frames = await run_in_threadpool(loaded.frames, start, count)
        return await run_in_threadpool(_json, request, {"start": start, "frames": frames})

    async def log_api(request: Request) -> Response:
        """Every frame without its board: the whole log, the decisions and incidents."""
        where = locate(request)
        loaded = await _load(where, _seat(request))
        return await run_in_threadpool(_json, request, {"frames": loaded.texts})

    return [
        Route(page, match_page),
        Route(f"{api}/frames", frames_api),
        Route(f"{api}/log", log_api),
    ]


def routes(config: WebConfig) -> list[BaseRoute]:
    """A tournament's recorded matches; the live list, page and event stream."""

    def tournament_match(request: Request) -> Located:
        name, match_id = _name(request, "name"), _name(request, "match_id")
        return Located(
            config.records,
            tournament_record(name, match_id),
            f"/api/t/{name}/m/{match_id}",
            f"/t/{name}",
            "the tournament",
        )

    async def live_list(request: Request) -> Response:
        server = _server(config)
        context: dict[str, Any] = {"server": server, "matches": None, "problem": None}
        status = 200
        if config.server_token is None:
            context["problem"] = (
                "Listing the referee's matches needs its admin token (admiralty web --token)."
            )
        else:
            try:
                context["matches"] = await run_in_threadpool(
                    _summaries, server, config.server_token
                )
            except grpc.RpcError as error:
                context["problem"] = f"The referee did not answer: {_rpc_problem(error)}."
                status = 502
        return templates.TemplateResponse(request, "live.html", context, status_code=status)

    async def live_page(request: Request) -> Response:
        _server(config)
        match_id = _name(request, "match_id")
        seat = _live_seat(request, config)
        query = f"?seat={seat}" if seat is not None else ""
        return templates.TemplateResponse(
            request,
            "match.html",
            {
                "header": None,
                "first": None,
                "source": "live",
                "match_id": match_id,
                "events_url": f"/live/{match_id}/events{query}",
                "back": "/live",
                "back_label": "live matches",
                "can_seat": is_operator(request) and config.server_token is not None,
            },
        )

    async def live_events(request: Request) -> Response:
        server = _server(config)
        match_id = _name(request, "match_id")
        seat = _live_seat(request, config)
        token = config.server_token if is_operator(request) and config.server_token else ""
        watch = referee_pb2.WatchRequest(match_id=match_id, token=token, seat=seat)
        return StreamingResponse(
            _events(server, watch, seat),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    return [
        *recorded_routes("/t/{name}/m/{match_id}", "/api/t/{name}/m/{match_id}", tournament_match),
        Route("/live", live_list),
        Route("/live/{match_id}", live_page),
        Route("/live/{match_id}/events", live_events),
    ]


def _json(request: Request, data: Any) -> Response:
    """`data` as JSON, gzipped for a browser that takes it: boards are most of a chunk's
    bytes, and a tenth of them once compressed."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    headers = {"Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(body, compresslevel=5, mtime=0)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def _name(request: Request, key: str) -> str:
    """A tournament name or match id from the path; 404 unless it is a `NAME`."""
    value = request.path_params[key]
    if not NAME.fullmatch(value):
        raise HTTPException(404, "There is no such match.")
    return value


def tournament_record(name: str, match_id: str) -> str:
    """Where in the records folder `tournament run` writes a match's record."""
    return f"{name}/{match_id}.jsonl.gz"


def record_path(records: Path, record: str) -> Path:
    """The record at `record` in the records folder; 404 if it would lie outside the
    folder or is not there."""
    root = records.resolve()
    path = (root / record).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise HTTPException(404, "There is no record of this match.")
    return path


def query_number(request: Request, key: str, default: int) -> int:
    """A whole number from the query; 400 if it is not one or is negative."""
    given = request.query_params.get(key)
    if given is None:
        return default
    if not given.isdigit() or len(given) > 9:
        raise HTTPException(400, f"{key} must be a whole number from 0.")
    return int(given)


def _seat(request: Request) -> Viewer:
    """The seat asked for, if any: the operator's only (403 for anyone else)."""
    if request.query_params.get("seat") is None:
        return None
    if not is_operator(request):
        raise HTTPException(403, "A seat's eye view is for the operator: sign in first.")
    return query_number(request, "seat", 0)


def _live_seat(request: Request, config: WebConfig) -> Viewer:
    """A seat to watch live: the operator's only, and only with the referee's token."""
    seat = _seat(request)
    if seat is not None and config.server_token is None:
        raise HTTPException(403, "Watching a seat needs the referee's admin token.")
    return seat


async def _load(where: Located, seat: Viewer) -> Replay:
    """The match's record as `seat`'s frames (re-derived in a worker thread)."""
    path = record_path(where.records, where.record)
    try:
        return await run_in_threadpool(replay, path, seat)
    except NoSuchSeat as error:
        raise HTTPException(400, f"{str(error).replace('--seat ', 'No seat ', 1)}.") from None
    except FileNotFoundError:
        raise HTTPException(404, "There is no record of this match.") from None
    except (OSError, *UNREADABLE):
        raise HTTPException(500, "The record of this match cannot be read.") from None


def _server(config: WebConfig) -> str:
    if config.server is None:
        raise HTTPException(404, "No referee server is configured (admiralty web --server).")
    return config.server


def _summaries(server: str, token: str) -> list[dict[str, Any]]:
    """The referee's matches as the list shows them: no seeds, no record paths."""
    with remote_referee(server, token) as referee:
        return [
            {
                "match_id": summary.match_id,
                "game": summary.game,
                "status": referee_pb2.MatchStatus.Name(summary.status)
                .removeprefix("MATCH_STATUS_")
                .lower(),
                "steps": summary.steps,
                "bots": [printable(name) for name in display_names(summary.bot_names)],
                "watchable": NAME.fullmatch(summary.match_id) is not None,
            }
            for summary in referee.matches()
        ]


def _rpc_problem(error: grpc.RpcError) -> str:
    code, details = error.code(), error.details()
    return f"{code.name.lower()}: {details}" if details else code.name.lower()


def sse(kind: str, data: Any) -> str:
    """One server-sent event, its data one line of JSON."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def _events(
    server: str, watch: referee_pb2.WatchRequest, viewer: Viewer
) -> AsyncIterator[str]:
    """The Watch stream as server-sent events: header, frames, result, then `end`; a
    `failure` says why it stopped early. The stream is read in a worker thread; when the
    browser goes away (the response is cancelled) the gRPC call is cancelled with it."""
    channel = referee_channel(server)
    call = referee_pb2_grpc.RefereeServiceStub(channel).Watch(watch)
    messages, frames = iter(call), LiveFrames(viewer)
    waiting: asyncio.Future[list[tuple[str, dict[str, Any]]] | None] | None = None
    try:
        while True:
            waiting = asyncio.wrap_future(WATCHERS.submit(_advance, messages, frames))
            while not (await asyncio.wait({waiting}, timeout=KEEPALIVE))[0]:
                yield ": keepalive\n\n"
            sent = waiting.result()
            if sent is None:
                break
            for kind, data in sent:
                yield sse(kind, data)
    except grpc.RpcError as error:
        yield sse("failure", {"message": f"The referee said: {_rpc_problem(error)}."})
    finally:
        if waiting is not None:
            waiting.cancel()  # its thread ends with the call: nobody waits for it
        call.cancel()
        channel.close()
    yield sse("end", {})


def _advance(
    messages: Iterator[referee_pb2.WatchResponse], frames: LiveFrames
) -> list[tuple[str, dict[str, Any]]] | None:
    """The next Watch message as events to send (boards drawn here, off the event loop);
    None once the stream ends."""
    message = next(messages, None)
    return None if message is None else list(frames.take(message))
