"""Referee worker processes: each plays one planned match at a time against shared bots.

The engine and the wire codec are Python work done by the referee for every decision;
spreading matches over processes lets a tournament use every core. Bot processes are
started once by the parent; each worker connects to them by address. A match is fully
determined by its spec and the bots' answers, so results do not depend on the worker that
played them.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from admiralty.referee import BotClient, MatchReport, MatchSpec, run_match

_worker: dict = {}


def _start(addresses: Sequence[str]) -> None:
    """Worker initialiser: leave Ctrl-C to the parent, connect to every bot once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    _worker.update(loop=loop, clients=loop.run_until_complete(_connect(addresses)))


async def _connect(addresses: Sequence[str]) -> list[BotClient]:
    clients = [BotClient(address) for address in addresses]
    await asyncio.gather(*(client.hello() for client in clients))
    return clients


def _play(spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
    clients = _worker["clients"]
    return _worker["loop"].run_until_complete(run_match(spec, [clients[i] for i in seats]))


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C belongs to the parent, which stops the pool; a worker still importing must
    not die of it with a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class RefereePool:
    """`parallel` worker processes, each playing one match at a time."""

    def __init__(self, parallel: int, addresses: Sequence[str]):
        self._pool = ProcessPoolExecutor(
            max_workers=parallel, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start, initargs=(list(addresses),))
        with _sigint_ignored():
            for _ in range(parallel):  # each submit starts a worker, which inherits SIG_IGN
                self._pool.submit(int)

    async def play(self, spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _play, spec, tuple(seats))

    def close(self) -> None:
        """Stop at once: queued matches are dropped, a match in play is abandoned."""
        self._pool.shutdown(wait=False, cancel_futures=True)
