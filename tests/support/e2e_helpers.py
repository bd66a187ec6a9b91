"""In-process bots for end-to-end tests: real gRPC servers on 127.0.0.1 with free ports."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

from admiralty.referee import BotClient, MatchSpec, run_match
from admiralty.referee.launcher import free_port
from admiralty.referee.service import serve_referee
from admiralty_sdk import Bot, start_server

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot.py")
TEST_BOTS = REPO / "tests" / "e2e" / "bots"


class ScriptedBot(Bot):
    """Answers with `choose(request)`; records every request it receives."""

    def __init__(self, name: str = "scripted", choose=None, auto_pass: Sequence[str] = ()):
        self.name = name
        self.auto_pass = tuple(auto_pass)
        self.requests = []
        self._choose = choose or (lambda request: 0)

    async def decide(self, request) -> int:
        self.requests.append(request)
        answer = self._choose(request)
        if asyncio.iscoroutine(answer):
            answer = await answer
        return answer


@contextlib.asynccontextmanager
async def serving(bots: Sequence[Bot]) -> AsyncIterator[list[BotClient]]:
    """Serve each bot on its own free port and yield connected clients (Hello done)."""
    servers, clients = [], []
    try:
        for bot in bots:
            port = free_port()
            servers.append(await start_server(bot, port))
            client = BotClient(f"127.0.0.1:{port}")
            await client.hello()
            clients.append(client)
        yield clients
    finally:
        for client in clients:
            await client.close()
        for server in servers:
            await server.stop(grace=None)


async def play(bots: Sequence[Bot], game: str = "jamaica", seed: int = 1, **spec) -> object:
    """Play one match between in-process bots; returns the MatchReport."""
    async with serving(bots) as clients:
        return await run_match(MatchSpec(f"{game}-test-{seed}", game, seed, **spec), clients)


@contextlib.contextmanager
def served_referee(
    bots: Sequence[Bot], token: str = "secret", record_dir: Path | None = None
) -> Iterator[tuple[str, list[str]]]:
    """A referee on a free local port, run in a thread with `bots` served beside it:
    yields its address and the bots' addresses; both are stopped afterwards."""
    loop, ready, holder = asyncio.new_event_loop(), threading.Event(), {}
    port = free_port()

    async def serve():
        async with serving(bots) as clients:
            holder["bots"] = [client.address for client in clients]
            server = await serve_referee("127.0.0.1", port, token, record_dir)
            ready.set()
            await holder["stop"].wait()
            await server.stop(None)

    def run():
        asyncio.set_event_loop(loop)
        holder["stop"] = asyncio.Event()
        loop.run_until_complete(serve())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30), "the referee did not start"
    try:
        yield f"127.0.0.1:{port}", holder["bots"]
    finally:
        loop.call_soon_threadsafe(holder["stop"].set)
        thread.join(30)


async def unhurried(request) -> int:
    """A bot's answer slow enough (20 ms) for a match to be watched while it plays."""
    await asyncio.sleep(0.02)
    return random.Random(request.request_id).randrange(len(request.options))


@contextlib.contextmanager
def watchable_referee(token: str) -> Iterator[tuple[str, list[str]]]:
    """`served_referee` with two unhurried random bots named "steady"."""
    bots = [ScriptedBot("steady", unhurried), ScriptedBot("steady", unhurried)]
    with served_referee(bots, token=token) as served:
        yield served
