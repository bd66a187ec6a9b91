"""Referee worker processes: each plays one planned match at a time against shared bots.

The engine and the wire codec are Python work done by the referee for every decision;
spreading matches over processes lets a tournament use every core. Bot processes are
started once by the parent; each worker connects to them by address. A match is fully
determined by its spec and the bots' answers, so results do not depend on the worker that
played them.

A worker talks to the parent over a pipe: first whether it reached every bot, then one
report per match. Anything that goes wrong in a worker (a bot it cannot reach, a crash,
its death) comes back as one `WorkerError`, and the pool stops every worker, so a failed
tournament ends with one line instead of hanging. A worker dies with the parent, even one
killed by SIGKILL: a tournament never leaves referees running behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any

import grpc

from admiralty.referee import BotClient, MatchReport, MatchSpec, run_match

PR_SET_PDEATHSIG = 1
"""prctl(2): the signal Linux sends this process when its parent thread exits."""

STOP_GRACE = 2.0
"""Seconds a worker has to exit on SIGTERM before it is killed."""

BotAddress = tuple[str, str]
"""A bot as the operator named it, and the address its workers reach it at."""


class WorkerError(RuntimeError):
    """A referee worker could not start or failed; the message says which and why."""


async def run_all(coroutines: Iterable[Coroutine[Any, Any, Any]]) -> None:
    """Run them concurrently; the first failure cancels the others and is raised as itself."""
    try:
        async with asyncio.TaskGroup() as group:
            for coroutine in coroutines:
                group.create_task(coroutine)
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None


class _Worker:
    """One referee process and the parent's end of its pipe."""

    def __init__(self, bots: Sequence[BotAddress], hello_timeout: float):
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve,
            name="admiralty-referee",
            daemon=True,
            args=(child, os.getpid(), list(bots), hello_timeout),
        )
        self.process.start()
        child.close()

    async def call(self, *message: object) -> Any:
        self._conn.send(message)
        return await self.receive()

    async def receive(self) -> Any:
        """The worker's next answer; its failure or death raised as WorkerError."""
        await _readable(self._conn)
        try:
            ok, value = self._conn.recv()
        except (EOFError, OSError):
            raise WorkerError(
                f"a referee worker (pid {self.process.pid}) died unexpectedly"
            ) from None
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """Stop at once: a match in play is abandoned (it has no result and is replayed)."""
        self.process.terminate()
        self.process.join(STOP_GRACE)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self._conn.close()


async def _readable(conn: Connection) -> None:
    loop = asyncio.get_running_loop()
    ready = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(conn.fileno(), wake)
    try:
        await ready
    finally:
        loop.remove_reader(conn.fileno())


class RefereePool:
    """Worker processes, each playing one match at a time."""

    def __init__(self, workers: Sequence[_Worker]):
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        for worker in workers:
            self._idle.put_nowait(worker)

    async def play(
        self, spec: MatchSpec, seats: Sequence[int], absent: Callable[[], Sequence[str]]
    ) -> MatchReport:
        """Play one match on the next idle worker; `absent()`, asked once the worker is
        free (a bot may have been disqualified meanwhile), gives per bot why it is known to
        be gone ("" if it is not), so its seats are played by the policy from the start."""
        worker = await self._idle.get()
        report = await worker.call(spec, tuple(seats), tuple(absent()))
        self._idle.put_nowait(worker)
        return report


@contextlib.asynccontextmanager
async def referee_pool(
    size: int, bots: Sequence[BotAddress], hello_timeout: float
) -> AsyncIterator[RefereePool]:
    """`size` workers, each of which has said Hello to every bot (each bot answering in
    `hello_timeout` seconds); all stopped on exit."""
    workers: list[_Worker] = []
    try:
        with _sigint_ignored():
            for _ in range(size):
                workers.append(_Worker(bots, hello_timeout))
        await run_all(worker.receive() for worker in workers)
        yield RefereePool(workers)
    finally:
        for worker in workers:
            worker.stop()


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C belongs to the parent, which stops the workers; a worker inherits SIG_IGN, so
    one still importing does not die of it with a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# ---------------------------------------------------------------- in the worker process


def _serve(conn: Connection, parent: int, bots: Sequence[BotAddress], hello_timeout: float) -> None:
    """The worker: reach every bot, say so, then play each match it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        clients = loop.run_until_complete(connect_bots(bots, hello_timeout))
    except WorkerError as error:
        conn.send((False, error))
        return
    conn.send((True, None))
    while True:
        try:
            spec, seats, absent = conn.recv()
        except EOFError:
            return
        conn.send(_play(loop, clients, spec, seats, absent))


async def connect_bots(bots: Sequence[BotAddress], hello_timeout: float) -> list[BotClient]:
    """A client per bot, each having said Hello within `hello_timeout` seconds; WorkerError
    naming a bot not reached."""
    clients = [BotClient(address) for _, address in bots]
    answers = await asyncio.gather(
        *(client.hello(hello_timeout) for client in clients), return_exceptions=True
    )
    for (spec, _), answer in zip(bots, answers, strict=True):
        if isinstance(answer, Exception):
            raise WorkerError(f"referee worker could not reach bot {spec!r}: {_why(answer)}")
    return clients


def _why(error: Exception) -> str:
    if isinstance(error, grpc.aio.AioRpcError):
        return f"{error.code().name} ({error.details()})"
    return str(error) or type(error).__name__


def _play(
    loop: asyncio.AbstractEventLoop,
    clients: Sequence[BotClient],
    spec: MatchSpec,
    seats: Sequence[int],
    absent: Sequence[str],
) -> tuple[bool, object]:
    for client, reason in zip(clients, absent, strict=True):
        client.absent = reason
    try:
        return True, loop.run_until_complete(run_match(spec, [clients[i] for i in seats]))
    except Exception as error:  # sent as one line: the tournament stops and can resume
        return False, WorkerError(
            f"match {spec.match_id} failed in its referee worker: {type(error).__name__}: {error}"
        )


def _die_with(parent: int) -> None:
    """End this worker when the tournament's process ends, however it ends: Linux kills it
    (prctl); elsewhere a thread watches for the parent to go."""
    if not _parent_death_signal():
        threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request took hold
        os._exit(1)


def _parent_death_signal() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL)) == 0
    except (OSError, AttributeError):
        return False


def watch_parent(
    parent: int,
    getppid: Callable[[], int] = os.getppid,
    sleep: Callable[[float], None] = time.sleep,
    stop: Callable[[int], None] = os._exit,
) -> None:
    """Poll until this process is no longer `parent`'s child, then stop it."""
    while getppid() == parent:
        sleep(1.0)
    stop(1)
