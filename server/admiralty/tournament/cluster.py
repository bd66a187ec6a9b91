"""The ray backend: a tournament's matches refereed as Ray tasks across a cluster.

Bots run next to the matches: one `BotHost` actor per node launches the tournament's bots
there once (a `grpc://` bot is reached where it is) and keeps them, supervised, for the
whole run. Each match is a Ray task (one CPU) that reaches the bots of its node's host —
once per Ray worker process, whose later matches reuse the connections — referees the
match and returns its report and the bytes of its record. The driver (the process running
the tournament) keeps `parallel` matches in flight, takes each report as its task
finishes, and alone writes the database and the records.

Faults: Ray retries a task whose worker process or node died (`MATCH_RETRIES`) with the
same spec, so the match is played again from its seed; the driver sees one report per
task, so it counts once. The actors belong to the driver: when it dies Ray stops them,
their bots with them, and `tournament resume` plays what has no result.

Ray is optional: it is imported here only, when the backend is chosen.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import os
import socket
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

from admiralty.referee import (
    BotClient,
    BotLaunchError,
    LaunchedBot,
    MatchReport,
    MatchSpec,
    check_plays,
    launch_all,
    run_match,
    stop_all,
)
from admiralty.referee.launcher import NO_ISOLATION, STARTUP_TIMEOUT, Isolation
from admiralty.referee.record import open_private
from admiralty.tournament.backend import BackendError, Referees, pool_size
from admiralty.tournament.workers import WorkerError, connect_bots

INSTALL = "--backend ray needs Ray: pip install 'admiralty[ray]'"
MATCH_RETRIES = 3
"""Times Ray plays a match again after its worker process or node died under it."""
STOP_GRACE = 10.0
"""Seconds the bot hosts have to stop their bots before they are killed."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the cluster's address to answer: Ray retries one that does not for
minutes."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(INSTALL) from None
    return ray


class RayBackend:
    """Matches as Ray tasks on the cluster at `address`: `ray://HOST:PORT`, `HOST:PORT` or
    `auto`; None starts Ray on this machine for the run (loopback only) and stops it."""

    def __init__(
        self,
        address: str | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        isolation: Isolation = NO_ISOLATION,
    ):
        if address is not None and address != "auto":
            _host_port(address)
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if address is None:  # read when Ray is imported: a Ray of our own keeps to loopback
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        self.ray = _import_ray()
        self.address = address
        self.startup_timeout = startup_timeout
        self.isolation = isolation

    @contextlib.asynccontextmanager
    async def referees(
        self, specs: Sequence[str], game: str, matches: int | None, parallel: int | None
    ) -> AsyncIterator[Referees]:
        with self._connected():
            cpus = int(self.ray.cluster_resources().get("CPU", 0))
            if cpus < 1:
                raise WorkerError("the Ray cluster has no CPU to referee matches on")
            async with _hosts(self.ray, specs, game, self.startup_timeout, self.isolation) as (
                namespace,
                names,
                hosts,
            ):
                yield RayReferees(
                    self.ray,
                    namespace,
                    names,
                    pool_size(matches, parallel, cpus),
                    self.startup_timeout,
                    hosts,
                )

    @contextlib.contextmanager
    def _connected(self) -> Iterator[None]:
        """Joined to the cluster (or to the one this process already joined)."""
        ray = self.ray
        if ray.is_initialized():
            yield
            return
        options = {"include_dashboard": False} if self.address is None else {}
        try:
            if self.address not in (None, "auto"):
                socket.create_connection(_host_port(self.address), CONNECT_TIMEOUT).close()
            ray.init(
                address=self.address or "local",
                logging_level="WARNING",
                log_to_driver=False,
                **options,
            )
        except (OSError, RuntimeError, ValueError, ray.exceptions.RayError) as error:
            where = self.address or "this machine"
            raise WorkerError(
                f"cannot start or join Ray at {where}: {_first_line(error)}"
            ) from None
        try:
            yield
        finally:
            ray.shutdown()


def _host_port(address: str) -> tuple[str, int]:
    """(host, port) of `ray://HOST:PORT` or `HOST:PORT`; BackendError if it is neither."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise BackendError(f"--address {address!r}: expected ray://HOST:PORT, HOST:PORT or auto")
    return host.strip("[]"), int(port)


class RayReferees:
    """The driver's end: each match a Ray task, at most `parallel` in flight."""

    def __init__(
        self,
        ray: Any,
        namespace: str,
        names: Sequence[str],
        parallel: int,
        hello_timeout: float,
        hosts: Sequence[Any],
    ):
        self.names = list(names)
        self._hosts = hosts
        self._ray = ray
        self._namespace = namespace
        self._hello_timeout = hello_timeout
        self._task = ray.remote(play_match).options(num_cpus=1, max_retries=MATCH_RETRIES)
        self._slots = asyncio.Semaphore(parallel)

    async def play(self, spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
        async with self._slots:
            ref = self._task.remote(self._namespace, spec, tuple(seats), self._hello_timeout)
            try:
                with _one_line(self._ray, f"match {spec.match_id}"):
                    report, record = await ref
            except asyncio.CancelledError:  # the tournament stops: so does the match
                self._ray.cancel(ref, force=True)
                raise
        if spec.record_path is not None and record is not None:
            with open_private(spec.record_path) as out:
                out.write(record)
        return dataclasses.replace(report, spec=spec)

    async def deaths(self) -> list[int]:
        """Summed over the nodes: each launched its own processes of every bot. A node lost
        with its bot host took its count along: the others' are summed."""
        answers = await asyncio.gather(
            *(host.deaths.remote() for host in self._hosts), return_exceptions=True
        )
        per_host = [counts for counts in answers if not isinstance(counts, BaseException)]
        return (
            [sum(counts) for counts in zip(*per_host, strict=True)]
            if per_host
            else [0] * len(self.names)
        )


@contextlib.asynccontextmanager
async def _hosts(
    ray: Any, specs: Sequence[str], game: str, startup_timeout: float, isolation: Isolation
) -> AsyncIterator[tuple[str, list[str], list[Any]]]:
    """A `BotHost` on every node with CPUs, its bots launched and known to play `game`:
    the namespace their names are in, the bots' names and the hosts. All stopped on
    exit."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    namespace = f"admiralty-{uuid.uuid4().hex}"
    actor = ray.remote(BotHost)
    nodes = [
        node["NodeID"] for node in ray.nodes() if node["Alive"] and node["Resources"].get("CPU")
    ]
    hosts = [
        actor.options(
            name=host_name(node),
            namespace=namespace,
            num_cpus=0,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
        ).remote(list(specs), os.getcwd(), startup_timeout, isolation)
        for node in nodes
    ]
    try:
        with _one_line(ray, "launching the bots"):
            names = await asyncio.gather(*(host.launch.remote(game) for host in hosts))
        yield namespace, names[0], hosts
    finally:
        stopping = [host.stop.remote() for host in hosts]
        await asyncio.wait(
            [asyncio.ensure_future(_quietly(ref)) for ref in stopping], timeout=STOP_GRACE
        )
        for host in hosts:
            ray.kill(host)


async def _quietly(ref: Any) -> None:
    with contextlib.suppress(Exception):
        await ref


def host_name(node: str) -> str:
    return f"bots-{node}"


@contextlib.contextmanager
def _one_line(ray: Any, what: str) -> Iterator[None]:
    """Ray's errors as one line: a bot's or a referee's error as itself."""
    try:
        yield
    except ray.exceptions.RayTaskError as error:
        cause = error.cause
        if isinstance(cause, BotLaunchError | WorkerError):
            raise cause from None
        raise WorkerError(
            f"{what} failed on the cluster: {type(cause).__name__}: {_first_line(cause)}"
        ) from None
    except ray.exceptions.RayError as error:
        raise WorkerError(f"{what} failed on the cluster: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


# ---------------------------------------------------------------- on the cluster's nodes


class BotHost:
    """A Ray actor: the tournament's bots on one node, launched once and supervised until
    stopped. Bot files are found from the driver's working directory when the node has it
    (a shared checkout), so relative paths mean what they mean to the operator."""

    def __init__(self, specs: list[str], cwd: str, startup_timeout: float, isolation: Isolation):
        self.specs = specs
        self.cwd = cwd
        self.startup_timeout = startup_timeout
        self.isolation = isolation
        self.bots: list[LaunchedBot] = []

    async def launch(self, game: str) -> list[str]:
        """Launch the bots; their names, or BotLaunchError saying which failed and why."""
        where = contextlib.chdir(self.cwd) if Path(self.cwd).is_dir() else contextlib.nullcontext()
        with where:
            self.bots = await launch_all(self.specs, self.startup_timeout, isolation=self.isolation)
        check_plays(self.bots, game)
        return [bot.client.name for bot in self.bots]

    async def addresses(self) -> list[tuple[str, str]]:
        """(spec, address) per bot, as the matches on this node reach them."""
        return [(bot.spec, bot.client.address) for bot in self.bots]

    async def absent(self) -> list[str]:
        """Per bot, why it is known to be gone ("" if it is not): see `RefereePool.play`."""
        return [bot.client.absent for bot in self.bots]

    async def deaths(self) -> list[int]:
        """Per bot, the deaths of its process on this node."""
        return [bot.crashes for bot in self.bots]

    async def stop(self) -> None:
        await stop_all(self.bots)


_reached: dict[str, tuple[Any, list[BotClient]]] = {}
"""In a Ray worker process: per tournament run (its namespace), the node's bot host and a
client per bot, reused by every match the process referees."""


@functools.cache
def _loop() -> asyncio.AbstractEventLoop:
    """The worker process's event loop, which the bot clients' channels belong to."""
    return asyncio.new_event_loop()


def play_match(
    namespace: str, spec: MatchSpec, seats: tuple[int, ...], hello_timeout: float
) -> tuple[MatchReport, bytes | None]:
    """A Ray task: referee one match against this node's bots (each having answered Hello
    within `hello_timeout` seconds); its report and record."""
    return _loop().run_until_complete(_referee(namespace, spec, seats, hello_timeout))


async def _referee(
    namespace: str, spec: MatchSpec, seats: tuple[int, ...], hello_timeout: float
) -> tuple[MatchReport, bytes | None]:
    host, clients = await _reach(namespace, hello_timeout)
    for client, reason in zip(clients, await host.absent.remote(), strict=True):
        client.absent = reason
    with tempfile.TemporaryDirectory(prefix="admiralty-record-") as scratch:
        record = Path(scratch) / "record.jsonl.gz" if spec.record_path else None
        report = await run_match(
            dataclasses.replace(spec, record_path=record), [clients[i] for i in seats]
        )
        return report, record.read_bytes() if record else None


async def _reach(namespace: str, hello_timeout: float) -> tuple[Any, list[BotClient]]:
    """This node's bot host and clients that said Hello to its bots, once per run."""
    if namespace not in _reached:
        import ray

        node = ray.get_runtime_context().get_node_id()
        try:
            host = ray.get_actor(host_name(node), namespace=namespace)
        except ValueError:
            raise WorkerError(
                f"Ray node {node} has no bots: it joined the cluster after the tournament started"
            ) from None
        for stale in list(_reached):  # an earlier run's bots are gone
            for client in _reached.pop(stale)[1]:
                await client.close()
        _reached[namespace] = host, await connect_bots(await host.addresses.remote(), hello_timeout)
    return _reached[namespace]
