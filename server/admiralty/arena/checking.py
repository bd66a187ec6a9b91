"""`admiralty check-bot --dial-in`: the checks of a bot that dials in instead of serving.

The checker is a small arena of its own: it serves `ArenaService` on 127.0.0.1 with a
key made for this check, the bot dials in with it as it would to any arena, and the
checks play it over its streams, each seat a `DialedBot` leased from the lobby as the
ladder leases one. So a bot is checked on the very path it will play on.

    verdict = await check_dialed_in(0, 3, CheckPlan(seed), DIAL_IN_TIMEOUT, announce=print_key)
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
from collections.abc import AsyncIterator, Callable

import grpc

from admiralty import __version__
from admiralty.arena.dialin import serve_arena
from admiralty.arena.lobby import DialedEntrant, Lobby, Registered
from admiralty.arena.streams import Stream, rpc_error
from admiralty.referee.clients import SeatBot
from admiralty.referee.conformance import CheckPlan, Conformance, Unplayable, check_reached
from admiralty.referee.launcher import free_port
from admiralty_sdk.v1 import bot_pb2

NAME = "dialed-in"
"""The name the check's key is registered under (the bot's Hello names it in the verdict)."""
DIAL_IN_TIMEOUT = 60.0
"""Seconds the bot has to dial in with its connections once the address is printed."""
RECONNECT_TIMEOUT = 10.0
"""Seconds matches wait for the bot's streams to be free: a stream whose seat a match
retired is closed (as the arena closes it), and the bot opens it again."""


class DialInError(RuntimeError):
    """The bot did not dial in as the check needs; the message says how, in one line."""


class _Lobby(Lobby):
    """The check's lobby, counting the streams let in that never got past Hello: a bot
    whose Hello the arena refuses is told why on its stream, and the checker says so."""

    refused = 0

    def abandon(self, entrant: DialedEntrant) -> None:
        self.refused += 1
        super().abandon(entrant)


@contextlib.asynccontextmanager
async def dial_in(host: str, port: int, connections: int) -> AsyncIterator[DialInReach]:
    """An arena on host:port (a free port if 0) that lets in one bot, with a new key and
    up to `connections` streams, while the block runs. DialInError if it cannot listen."""
    secret = secrets.token_urlsafe(32)
    registered = Registered(NAME, connections)

    def authenticate(key: str) -> Registered | None:
        return registered if hmac.compare_digest(key.encode(), secret.encode()) else None

    lobby = _Lobby(authenticate)
    port = port or free_port()
    try:
        server = await serve_arena(host, port, lobby)
    except OSError as error:
        raise DialInError(str(error)) from None
    try:
        yield DialInReach(lobby, f"{host}:{port}", secret, connections)
    finally:
        lobby.close()
        await server.stop(None)


class DialInReach:
    """The checks' `Reach` of a bot that dialed in: Hello asked on one of its streams,
    seats leased on the others."""

    crashes = 0  # the checker started no process: a bot that dies loses its streams

    def __init__(self, lobby: _Lobby, address: str, key: str, connections: int):
        self.lobby = lobby
        self.address = address
        self.key = key
        self.connections = connections

    async def arrived(self, timeout: float) -> None:
        """Return once the bot holds its connections; DialInError after `timeout` s."""
        if await self._entrant(lambda e: len(e.streams) >= self.connections, timeout):
            return
        entrant = self._current()
        held = len(entrant.streams) if entrant else 0
        if not held and self.lobby.refused:
            raise DialInError(
                f"a bot dialed in to {self.address} but was not let past Hello within "
                f"{timeout:g} s (its stream's status says why: a Hello over the limits, say)"
            )
        if not held:
            raise DialInError(f"no bot dialed in to {self.address} within {timeout:g} s")
        raise DialInError(
            f"the bot dialed in to {self.address} with {held} of the {self.connections} "
            f"connections the checks need within {timeout:g} s (start it with "
            f"--connections {self.connections}, or check it with --connections {held})"
        )

    async def hello(self, timeout: float) -> bot_pb2.HelloResponse:
        entrant = await self._entrant(lambda e: bool(e.idle()), timeout)
        if entrant is None:
            raise rpc_error(
                grpc.StatusCode.UNAVAILABLE, f"it holds no free connection for {timeout:g} s"
            )
        return await _ask_hello(entrant.idle()[0], timeout)

    @contextlib.asynccontextmanager
    async def seats(self, count: int) -> AsyncIterator[Callable[[], SeatBot]]:
        if count > self.connections:
            raise Unplayable(
                f"it holds {count} seats at once, and the bot dials in with "
                f"{self.connections} connection{'s' * (self.connections != 1)}"
            )
        entrant = await self._entrant(lambda e: len(e.idle()) >= count, RECONNECT_TIMEOUT)
        if entrant is None:
            raise Unplayable(
                f"the bot did not hold the {count} free connections it needs within "
                f"{RECONNECT_TIMEOUT:g} s"
            )
        leased: list[SeatBot] = []

        def lease() -> SeatBot:
            leased.append(entrant.lease())
            return leased[-1]

        try:
            yield lease
        finally:
            for seat in leased:
                entrant.release(seat)

    def _current(self) -> DialedEntrant | None:
        return next((e for e in self.lobby.connected() if e.name == NAME), None)

    async def _entrant(
        self, ready: Callable[[DialedEntrant], bool], timeout: float
    ) -> DialedEntrant | None:
        """The bot once `ready` holds of it, waiting up to `timeout` s; else None."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while (entrant := self._current()) is None or not ready(entrant):
                    await self.lobby.changed()
                return entrant
        return None


async def _ask_hello(stream: Stream, timeout: float) -> bot_pb2.HelloResponse:
    """The bot's Hello as it sent it, asked again on `stream`."""
    try:
        async with asyncio.timeout(timeout):
            reply: bot_pb2.HelloResponse = await stream.call(
                "hello", bot_pb2.HelloRequest(referee_version=__version__, protocol="v1")
            )
            return reply
    except TimeoutError:
        raise rpc_error(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded") from None


async def check_dialed_in(
    port: int,
    connections: int,
    plan: CheckPlan,
    timeout: float,
    announce: Callable[[DialInReach], None],
    progress: Callable[[str], None] = lambda stage: None,
) -> Conformance:
    """Serve the check's arena on 127.0.0.1:`port` (free if 0), `announce` where and with
    which key to dial in, wait up to `timeout` s for the bot's `connections` streams, and
    decide every check over them. DialInError if the port cannot be listened on, or the
    bot does not come."""
    async with dial_in("127.0.0.1", port, connections) as reach:
        announce(reach)
        await reach.arrived(timeout)
        return await check_reached(f"dial-in {reach.address}", reach, plan, progress)
