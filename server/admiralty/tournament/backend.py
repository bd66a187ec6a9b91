"""Where a tournament's matches are refereed; the runner stores what they report.

A backend launches (or reaches) the bots, checks that they play the game, referees the
matches it is given and stops everything on exit. It never writes the database: the
runner does, one result at a time, so every backend leaves the same rows. A match is fully
determined by its spec and the bots' answers, so backends differ in speed, not in results.

- `local`: referee worker processes of this machine (`workers.py`);
- `ray`: Ray tasks across a cluster (`cluster.py`; Ray is an optional dependency).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from admiralty.referee import LaunchedBot, MatchReport, MatchSpec, check_plays, launch_all, stop_all
from admiralty.referee.launcher import NO_ISOLATION, STARTUP_TIMEOUT, Isolation
from admiralty.tournament.workers import RefereePool, referee_pool


class BackendError(ValueError):
    """A backend that cannot be used as asked (Ray not installed, --address without it)."""


class BackendName(StrEnum):
    LOCAL = "local"
    RAY = "ray"


class Referees(Protocol):
    """Referees that reached every bot of a tournament; each bot plays its game."""

    @property
    def names(self) -> Sequence[str]:
        """The bots' names from their Hello, in the order of their specs."""
        ...

    async def play(self, spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
        """Referee one match, seat i played by bot `seats[i]`; its report, with its record
        written at `spec.record_path` when there is one."""
        ...

    async def deaths(self) -> list[int]:
        """Per bot, how many times a process of it launched for this run has died, in a
        call or between matches: what disqualifies it (0 for a bot reached by address)."""
        ...


class Backend(Protocol):
    def referees(
        self, specs: Sequence[str], game: str, matches: int | None, parallel: int | None
    ) -> AbstractAsyncContextManager[Referees]:
        """Referees for `matches` matches (None: no bound known, e.g. adaptive blocks),
        `parallel` at once (None: as many as the backend has cores for)."""
        ...


def make_backend(
    name: BackendName,
    address: str | None = None,
    startup_timeout: float = STARTUP_TIMEOUT,
    isolation: Isolation = NO_ISOLATION,
) -> Backend:
    """The backend `name`, whose bots each have `startup_timeout` seconds to answer Hello
    (when launched, and when each referee reaches them) and are launched isolated as
    `isolation` says; BackendError (one line) if it cannot be used as asked."""
    if name is BackendName.LOCAL:
        if address is not None:
            raise BackendError("--address is for --backend ray")
        isolation.check()  # here; the nodes of a cluster check for themselves
        return LocalBackend(startup_timeout, isolation)
    from admiralty.tournament.cluster import RayBackend

    return RayBackend(address, startup_timeout, isolation)


def pool_size(matches: int | None, parallel: int | None, cores: int) -> int:
    """Referees worth starting: no more than the matches, `parallel` or else `cores`."""
    size = parallel or cores
    return size if matches is None else max(1, min(size, matches))


class LocalBackend:
    """Bots launched once on this machine, refereed by as many worker processes as matches
    are played at once (each bot plays all of them)."""

    def __init__(
        self, startup_timeout: float = STARTUP_TIMEOUT, isolation: Isolation = NO_ISOLATION
    ):
        self.startup_timeout = startup_timeout
        self.isolation = isolation

    @contextlib.asynccontextmanager
    async def referees(
        self, specs: Sequence[str], game: str, matches: int | None, parallel: int | None
    ) -> AsyncIterator[Referees]:
        bots = await launch_all(specs, self.startup_timeout, isolation=self.isolation)
        try:
            check_plays(bots, game)
            addresses = [(bot.spec, bot.client.address) for bot in bots]
            size = pool_size(matches, parallel, os.cpu_count() or 1)
            async with referee_pool(size, addresses, self.startup_timeout) as pool:
                yield LocalReferees(pool, bots)
        finally:
            await stop_all(bots)


@dataclass
class LocalReferees:
    pool: RefereePool
    bots: Sequence[LaunchedBot]

    @property
    def names(self) -> list[str]:
        return [bot.client.name for bot in self.bots]

    async def play(self, spec: MatchSpec, seats: Sequence[int]) -> MatchReport:
        # asked once a worker is free: a bot may have been disqualified meanwhile
        return await self.pool.play(spec, seats, lambda: [bot.client.absent for bot in self.bots])

    async def deaths(self) -> list[int]:
        return [bot.crashes for bot in self.bots]
