"""The bots connected to the arena now, and the seats their connections are leased for.

A registered bot holds up to its number of connections, each a stream
(`ArenaService.Play`, see `admiralty.arena.dialin`) that plays one match at a time. The
lobby knows a bot by its registered name: `free()` lists the bots with a stream serving no
seat, `Entrant.lease()` hands one such stream to a match as a `DialedBot`, and
`Entrant.release()` gives it back when the match is over.

A stream that drops leaves its seat waiting: the same bot connecting again picks the seat
up, and a call the drop broke is asked again on the new stream if that happens within its
deadline. A seat released before its match told it MatchOver (the match retired it as
hung, broken or gone, or the match stopped) has its stream closed (ABORTED): the ladder
needs no more than `release`, and a bot that stopped answering starts afresh when it
reconnects instead of being offered again as free.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import grpc

from admiralty.arena.streams import DialedBot, Stream
from admiralty.games import Window
from admiralty.referee.clients import HELLO_TIMEOUT, SeatBot
from admiralty.text import printable
from admiralty.wire import from_window_kind
from admiralty_sdk.v1 import bot_pb2


@dataclass(frozen=True)
class Registered:
    """What authentication yields."""

    name: str
    """The bot's registered name (unique)."""
    connections: int
    """Matches it may play at once: the streams it may hold."""


class Authenticate(Protocol):
    def __call__(self, key: str) -> Registered | None:
        """The bot `key` belongs to; None for a wrong or revoked key."""
        ...


class Entrant(Protocol):
    """A connected bot as the ladder sees it."""

    name: str
    version: str
    games: tuple[str, ...]

    def lease(self) -> SeatBot: ...

    def release(self, seat_bot: SeatBot) -> None: ...


@dataclass(frozen=True)
class Limits:
    """What one address may hold: a flood of streams from it is refused (RESOURCE_EXHAUSTED)
    while the bots that got in play on."""

    streams_per_address: int = 64
    """Streams open at once from one address, admitted or not."""
    unanswered_per_address: int = 4
    """Streams from one address whose Hello is not answered yet (or that are yet to be
    authenticated): a client opening streams and never answering holds few."""
    hello_timeout: float = HELLO_TIMEOUT
    """Seconds a new stream has to answer Hello."""


CLOSED_UNTOLD = (
    grpc.StatusCode.ABORTED,
    "its match ended without telling it the result (the seat was retired or the match "
    "stopped); connect again",
)
REMOVED = (grpc.StatusCode.UNAUTHENTICATED, "the bot was removed from the arena")
STOPPING = (grpc.StatusCode.UNAVAILABLE, "the arena is stopping; connect again later")


class DialedEntrant:
    """A registered bot in the lobby: its open streams and the seats leased on them.

    `version`, `games` and `auto_pass` are its latest Hello's."""

    def __init__(self, name: str, changed: Callable[[DialedEntrant], None]):
        self.name = name
        self.version = ""
        self.games: tuple[str, ...] = ()
        self.auto_pass: frozenset[Window] = frozenset()
        self.streams: list[Stream] = []
        self.opening = 0
        """Streams admitted whose Hello is not answered yet: they count as connections."""
        self.removed = False
        self._seats: list[DialedBot] = []
        self._changed = changed

    def held(self) -> int:
        """The connections the bot holds, opening ones included."""
        return len(self.streams) + self.opening

    def idle(self) -> list[Stream]:
        """The open streams serving no seat."""
        serving = {id(seat.stream) for seat in self._seats}
        return [stream for stream in self.streams if id(stream) not in serving]

    def unused(self) -> bool:
        """Whether the lobby may forget the bot: no stream, none opening, no seat."""
        return not (self.streams or self.opening or self._seats)

    def lease(self) -> DialedBot:
        """A seat on one of the bot's idle streams; LookupError if it has none."""
        idle = self.idle()
        if not idle:
            raise LookupError(f"{self.name} has no free connection")
        seat = DialedBot(self.name, self.auto_pass, idle[0])
        self._seats.append(seat)
        return seat

    def release(self, seat_bot: SeatBot) -> None:
        """Give a leased seat's stream back; closed if the match never told it MatchOver."""
        seat = next((seat for seat in self._seats if seat is seat_bot), None)
        if seat is None:
            raise ValueError(f"not a seat leased from {self.name}")
        self._seats.remove(seat)
        stream = seat.detach()
        if stream is not None and not seat.told_over:
            stream.close(CLOSED_UNTOLD)
        self._changed(self)

    def join(self, stream: Stream, hello: bot_pb2.HelloResponse) -> None:
        """Add a stream whose Hello was answered (and checked): it takes up a seat whose
        stream dropped, if there is one, else it is idle."""
        self.version = printable(hello.version)
        self.games = tuple(hello.games)
        self.auto_pass = frozenset(from_window_kind(kind) for kind in hello.auto_pass)
        self.streams.append(stream)
        stream.on_close = self._leave
        orphan = next((seat for seat in self._seats if seat.stream is None), None)
        if orphan is not None:
            orphan.attach(stream)

    def _leave(self, stream: Stream) -> None:
        self.streams.remove(stream)
        for seat in self._seats:
            if seat.stream is stream:
                seat.detach()
        self._changed(self)


class Lobby:
    """The bots connected now. A dialed-in bot's identity: registered name + Hello.

    Built as `Lobby(authenticate)`; its service is added to a gRPC server with
    `admiralty.arena.dialin.add_arena_service(server, lobby)`."""

    def __init__(self, authenticate: Authenticate, limits: Limits | None = None):
        self.authenticate = authenticate
        self.limits = limits or Limits()
        self._entrants: dict[str, DialedEntrant] = {}
        self._changed = asyncio.Event()

    def connected(self) -> list[DialedEntrant]:
        """Every bot with a stream open, leased or not."""
        return [entrant for entrant in self._entrants.values() if entrant.streams]

    def free(self) -> list[DialedEntrant]:
        """The connected bots with a free slot (an idle stream)."""
        return [entrant for entrant in self._entrants.values() if entrant.idle()]

    async def changed(self) -> None:
        """Return when a bot connects or disconnects, or a slot is released."""
        await self._changed.wait()

    def remove(self, name: str) -> None:
        """Close a removed bot's streams (UNAUTHENTICATED); the seats it holds play on
        without it, and streams still opening are refused when their Hello is answered."""
        entrant = self._entrants.pop(name, None)
        if entrant is None:
            return
        entrant.removed = True
        for stream in list(entrant.streams):
            stream.close(REMOVED)

    def close(self) -> None:
        """Close every stream (UNAVAILABLE): the arena stops, and its bots dial again."""
        for entrant in list(self._entrants.values()):
            for stream in list(entrant.streams):
                stream.close(STOPPING)

    def admit(self, registered: Registered) -> DialedEntrant | None:
        """Count one more connection of `registered` (opening until it joins); None when it
        holds all its connections already."""
        entrant = self._entrants.get(registered.name)
        if entrant is None:
            entrant = self._entrants[registered.name] = DialedEntrant(
                registered.name, self._entrant_changed
            )
        if entrant.held() >= registered.connections:
            self._forget_unused(entrant)
            return None
        entrant.opening += 1
        return entrant

    def join(self, entrant: DialedEntrant, stream: Stream, hello: bot_pb2.HelloResponse) -> None:
        """The admitted stream answered Hello: the bot is in the lobby (unless it was
        removed meanwhile: the stream is closed)."""
        entrant.opening -= 1
        if entrant.removed:
            stream.close(REMOVED)
            return
        entrant.join(stream, hello)
        self._notify()

    def abandon(self, entrant: DialedEntrant) -> None:
        """An admitted stream ended before it joined: its connection is free again."""
        entrant.opening -= 1
        self._forget_unused(entrant)

    def _entrant_changed(self, entrant: DialedEntrant) -> None:
        self._forget_unused(entrant)
        self._notify()

    def _forget_unused(self, entrant: DialedEntrant) -> None:
        if entrant.unused() and self._entrants.get(entrant.name) is entrant:
            del self._entrants[entrant.name]

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
