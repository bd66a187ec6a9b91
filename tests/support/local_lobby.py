"""A lobby of bots in this process, for the ladder's tests: each entrant leases its `Bot`
as a `LocalClient` (no gRPC, no processes), up to its number of connections.

A local bot answers without ever yielding to the event loop, so each match would run to
its end before the next starts; an entrant given a `pause` sleeps that long before each
answer, so that its matches run at once, as a dialed-in bot's do."""

from __future__ import annotations

import asyncio
from pathlib import Path

from admiralty.arena.store import ArenaStore
from admiralty.referee.clients import SeatBot
from admiralty.referee.local import LocalClient, load_bot
from admiralty_sdk import Bot

EXAMPLES = Path(__file__).resolve().parents[2] / "example_bots"


def example(file: str, **kwargs) -> Bot:
    """A new bot of the class `example_bots/file` defines, built with `kwargs`."""
    return type(load_bot(EXAMPLES / file))(**kwargs)


class Pausing(LocalClient):
    def __init__(self, bot: Bot, pause: float):
        super().__init__(bot)
        self.pause = pause

    async def decide(self, request, timeout):
        await asyncio.sleep(self.pause)
        return await super().decide(request, timeout)


class LocalEntrant:
    def __init__(
        self, lobby: LocalLobby, name: str, bot: Bot, connections: int, pause: float = 0.0
    ):
        self.lobby, self.name, self.bot, self.connections = lobby, name, bot, connections
        self.pause = pause
        self.version = bot.version
        self.games = tuple(bot.games)
        self.leased: list[SeatBot] = []

    def lease(self) -> SeatBot:
        if len(self.leased) >= self.connections:
            raise LookupError(f"{self.name} has no free connection")
        seat = self.seat_bot()
        self.leased.append(seat)
        return seat

    def seat_bot(self) -> SeatBot:
        client = Pausing(self.bot, self.pause) if self.pause else LocalClient(self.bot)
        client.name = self.name
        return client

    def release(self, seat_bot: SeatBot) -> None:
        self.leased.remove(seat_bot)
        self.lobby.notify()


class LocalLobby:
    """Entrants join with `join`; `removed` lists the names the ladder had removed."""

    def __init__(self) -> None:
        self.entrants: dict[str, LocalEntrant] = {}
        self.removed: list[str] = []
        self._changed = asyncio.Event()

    def join(self, name: str, bot: Bot, connections: int = 1, pause: float = 0.0) -> LocalEntrant:
        entrant = self.entrants[name] = LocalEntrant(self, name, bot, connections, pause)
        self.notify()
        return entrant

    def free(self) -> list[LocalEntrant]:
        return [e for e in self.entrants.values() if len(e.leased) < e.connections]

    async def changed(self) -> None:
        await self._changed.wait()

    def remove(self, name: str) -> None:
        self.entrants.pop(name, None)
        self.removed.append(name)

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()


def registered(
    store: ArenaStore,
    lobby: LocalLobby,
    bots: dict[str, Bot],
    connections: int = 1,
    pause: float = 0.0,
) -> None:
    """Register each bot of `bots` (by name) in `store` and connect it to `lobby`."""
    for name, bot in bots.items():
        store.add(name, connections)
        lobby.join(name, bot, connections, pause)
