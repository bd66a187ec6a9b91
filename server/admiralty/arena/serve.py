"""An arena served: the bots' `ArenaService` and the operator's `RefereeService` on one port,
and the ladder playing on the bots that dial in, until stopped.

The ladder's matches are played by the `RefereeServicer`, so `ListMatches`, `GetMatch` and
`Watch` show them as they run (`admiralty web --server`, `watch`, `match list`); its
`CreateMatch` is refused, the ladder starts every match. The admin token guards the
operator's calls as on `admiralty serve`; a bot's stream carries its own key instead.

One process serves a file at a time (the store's lease). A bot removed from the file while
the arena runs has its streams closed within `EVICT_EVERY` seconds: its key no longer
authenticates, so it cannot come back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

import grpc

from admiralty.arena.dialin import MAX_STREAMS, SERVER_OPTIONS, SERVICE, add_arena_service
from admiralty.arena.ladder import Play
from admiralty.arena.lobby import Lobby
from admiralty.arena.store import ArenaStore
from admiralty.referee.service import (
    MAX_CONCURRENT_RPCS,
    PUBLIC_METHODS,
    RefereeServicer,
    TokenInterceptor,
)
from admiralty.tournament.store import Runner
from admiralty_sdk.bot import bind
from admiralty_sdk.v1 import referee_pb2_grpc

EVICT_EVERY = 2.0
"""Seconds between two looks at the file for bots removed meanwhile."""
PUBLIC = PUBLIC_METHODS | {f"/{SERVICE}/Play"}
"""The calls that need no admin token: `Watch`, and a bot's stream (it has its key)."""

LadderRun = Callable[[Lobby, Play], Coroutine[Any, Any, int]]
"""The ladder to run on the lobby, playing its matches with `Play`: `run_ladder` with its
settings."""


async def start_server(
    host: str,
    port: int,
    lobby: Lobby,
    referee: RefereeServicer,
    tls: tuple[bytes, bytes] | None = None,
) -> grpc.aio.Server:
    """Serve `lobby`'s `ArenaService` and `referee` on host:port, over TLS when `tls` is
    (private key, certificate chain); the caller stops the server. OSError when it cannot
    listen there."""
    server = grpc.aio.server(
        options=SERVER_OPTIONS,
        maximum_concurrent_rpcs=MAX_STREAMS + MAX_CONCURRENT_RPCS,
        interceptors=[TokenInterceptor(referee.admin_token, PUBLIC)],
    )
    add_arena_service(server, lobby)
    referee_pb2_grpc.add_RefereeServiceServicer_to_server(referee, server)
    credentials = grpc.ssl_server_credentials([tls]) if tls else None
    if not bind(server, host, port, credentials):
        raise OSError(f"cannot listen on {host}:{port}: the port is in use or not allowed")
    await server.start()
    return server


async def serve(
    store: ArenaStore,
    lobby: Lobby,
    ladder: LadderRun,
    address: tuple[str, int],
    referee: RefereeServicer,
    stop: asyncio.Event,
    *,
    tls: tuple[bytes, bytes] | None = None,
    listening: Callable[[], None] = lambda: None,
) -> None:
    """Hold `store`'s lease and serve the arena at `address` (host, port) until `stop` is
    set or the ladder ends; `lobby` is `Lobby(store.authenticate)`, with the `Limits`
    chosen. `listening` is called once the port listens. StoreError if another process
    serves the file, OSError if the port cannot be listened on; the ladder's own errors
    are raised as they are. On the way out every stream is closed (the bots dial again)."""
    runner = Runner.this_process(datetime.now(UTC))
    store.take_lease(runner)
    try:
        server = await start_server(*address, lobby, referee, tls)
        try:
            listening()
            await _until_stopped(ladder(lobby, referee.play), evict(store, lobby), stop)
        finally:
            lobby.close()
            await server.stop(grace=1.0)
    finally:
        store.release_lease(runner)


async def _until_stopped(
    ladder: Coroutine[Any, Any, int], evicting: Coroutine[Any, Any, None], stop: asyncio.Event
) -> None:
    """Run the ladder until it ends or `stop` is set (it is then cancelled, its matches in
    flight made void); an error of the ladder is raised."""
    playing = asyncio.create_task(ladder)
    stopped = asyncio.create_task(stop.wait())
    tasks = (playing, stopped, asyncio.create_task(evicting))
    try:
        await asyncio.wait(tasks[:2], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        outcome = (await asyncio.gather(*tasks, return_exceptions=True))[0]
    if isinstance(outcome, Exception):
        raise outcome


async def evict(store: ArenaStore, lobby: Lobby, every: float = EVICT_EVERY) -> None:
    """Close the streams of every connected bot removed from `store` since it connected,
    looking every `every` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        active = store.active()
        for entrant in lobby.connected():
            if entrant.name not in active:
                lobby.remove(entrant.name)
