"""The ladder: a match starts whenever enough connected bots are free, and is rated when done.

Matchmaking, each time a match can start, among the free bots that play the game:

1. The anchor is the one with the fewest games (stored, and started by this ladder), so
   every bot gets games and a newly connected one plays at once.
2. Its opponents: a group of the others drawn with a chance in proportion to the
   TrueSkill quality of its match with the anchor (of every group when there are at most
   `CANDIDATES`, else of `CANDIDATES` groups drawn at random). The closest matches, whose
   results teach the most, are the likeliest, yet never the only ones: bots that only ever
   met each other would be rated only against each other, and a cluster of strong bots
   and one of weak ones could both sit at the initial rating for ever.
3. Seats: of the group's seatings, the one whose bots have played their seats the fewest
   times in all, so every bot plays every seat in turn and none keeps the first move.

While other matches run, a match starts only when one bot more than its seats is free:
their bots will soon be free too, and the bots of a match that just ended must not simply
play each other again (two bots whose matches end together would otherwise only ever meet
each other).

Match n is dealt from `derive_seed(seed, "arena", n)`: the arena's seed and the match
number give the deal, so a ladder is reproducible. A match that cannot start (a lease
fails) or does not finish (an error, or the ladder is stopped) is void and never rated.
"""

from __future__ import annotations

import asyncio
import enum
import math
import random
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from itertools import combinations, permutations
from pathlib import Path
from typing import Any, Protocol

from admiralty.arena.lobby import Entrant
from admiralty.arena.ratings import ArenaRater
from admiralty.arena.store import ArenaStore, SeatResult
from admiralty.referee.clients import SeatBot
from admiralty.referee.match import Match, MatchReport, MatchSpec, checked_options
from admiralty.referee.policy import FailurePolicy
from admiralty.referee.record import private_dir
from admiralty.tournament.plan import derive_seed
from admiralty.tournament.store import StoreError

CANDIDATES = 64
"""The most candidate groups whose match quality is computed for one match."""
LEAST_WEIGHT = 1e-12
"""A group's least chance weight: far apart ratings make TrueSkill's quality 0.0."""


class LobbyLike(Protocol):
    """The bots connected now: an `arena.lobby.Lobby`, or bots of this process."""

    def free(self) -> Sequence[Entrant]: ...

    async def changed(self) -> None: ...

    def remove(self, name: str) -> None: ...


class NewVersion(enum.StrEnum):
    """What a bot's new version starts from: its rating so far, or the initial one."""

    KEEP = "keep"
    RESET = "reset"


Notify = Callable[[int, MatchReport | BaseException], None]
"""Told of each match that ends: its number and report, or the error that voided it."""
Play = Callable[[MatchSpec, Sequence[SeatBot]], Awaitable[MatchReport]]
"""How a match is played: on its own (`play_alone`), or by a referee server that lists it
and lets it be watched (`RefereeServicer.play`)."""


async def play_alone(spec: MatchSpec, bots: Sequence[SeatBot]) -> MatchReport:
    return await Match(spec, bots).run()


class Ladder:
    """Matchmaking and the matches in flight of one arena for `players` seats. `spec` is
    what every match's spec is made from: its seed is the arena's, its record path the
    folder of the records."""

    def __init__(
        self,
        store: ArenaStore,
        lobby: LobbyLike,
        spec: MatchSpec,
        players: int,
        new_version: NewVersion,
        notify: Notify,
        play: Play = play_alone,
    ):
        self.store, self.lobby, self.template = store, lobby, spec
        self.players, self.keep = players, new_version is NewVersion.KEEP
        self.notify, self.play = notify, play
        self.rng = random.Random(f"{spec.seed}:ladder")
        self.seat_games = store.seat_games()
        self.versions: dict[str, str] = {}
        """The version of each bot registered by this ladder: a new one is stored."""
        self.quality = ArenaRater().quality

    def games(self, name: str) -> int:
        """The bot's games, stored and started by this ladder, in every seat."""
        return sum(self.seat_games[(name, seat)] for seat in range(self.players))

    def pick(self, running: bool = False) -> list[Entrant] | None:
        """The free bots of the next match in seat order, or None if too few are free:
        while matches are `running`, one more than the seats."""
        pool = self._pool()
        if len(pool) < self.players + running:
            return None
        skills = self.store.skills()
        anchor, *others = sorted(pool, key=lambda e: (self.games(e.name), e.name))
        groups = list(self._groups(others))
        weights = [
            max(self.quality([skills[e.name] for e in (anchor, *group)]), LEAST_WEIGHT)
            for group in groups
        ]
        return self._seat([anchor, *self.rng.choices(groups, weights)[0]])

    def _pool(self) -> list[Entrant]:
        """The free bots that play the game, one entrant each, their versions stored; a
        removed bot's streams are closed."""
        active = self.store.active()
        pool: dict[str, Entrant] = {}
        for entrant in self.lobby.free():
            if entrant.name not in active:
                self.lobby.remove(entrant.name)
            elif self._plays(entrant) and self._versioned(entrant):
                pool.setdefault(entrant.name, entrant)
        return list(pool.values())

    def _plays(self, entrant: Entrant) -> bool:
        return not entrant.games or self.template.game in entrant.games

    def _versioned(self, entrant: Entrant) -> bool:
        """Store the bot's version if it is new to this ladder; False if the bot was
        removed meanwhile (it is sent away at the next pick)."""
        if self.versions.get(entrant.name) != entrant.version:
            try:
                self.store.new_version(entrant.name, entrant.version, self.keep)
            except StoreError:
                return False
            self.versions[entrant.name] = entrant.version
        return True

    def _groups(self, others: Sequence[Entrant]) -> Iterable[Sequence[Entrant]]:
        size = self.players - 1
        if math.comb(len(others), size) <= CANDIDATES:
            return combinations(others, size)
        return [self.rng.sample(others, size) for _ in range(CANDIDATES)]

    def _seat(self, group: Sequence[Entrant]) -> list[Entrant]:
        """The seating of `group` whose bots have played their seats the least, in all:
        each seat's count grows where it is lowest, so every bot's even out."""
        seatings = permutations(sorted(group, key=lambda e: e.name))
        return list(
            min(
                seatings,
                key=lambda order: sum(
                    self.seat_games[(e.name, seat)] for seat, e in enumerate(order)
                ),
            )
        )

    def launch(self, seated: Sequence[Entrant]) -> asyncio.Task[bool] | None:
        """Store the match as running, lease its seats and start it; None (the match
        void) if a lease fails."""
        number = self.store.next_match()
        spec = self._spec(number)
        record = str(spec.record_path) if spec.record_path else None
        players = [(e.name, e.version) for e in seated]
        self.store.start(number, spec.game, spec.seed, players, record)
        for seat, entrant in enumerate(seated):
            self.seat_games[(entrant.name, seat)] += 1
        leases: list[tuple[Entrant, SeatBot]] = []
        try:
            for entrant in seated:
                leases.append((entrant, entrant.lease()))
        except Exception as error:
            self._end(number, leases, error)
            return None
        return asyncio.create_task(self._play(number, spec, leases))

    def _spec(self, number: int) -> MatchSpec:
        template = self.template
        records = template.record_path
        return MatchSpec(
            f"arena-{number}",
            template.game,
            derive_seed(template.seed, "arena", number),
            template.options,
            template.deadline,
            template.time_bank,
            template.policy,
            records / f"arena-{number}.jsonl.gz" if records else None,
        )

    async def _play(
        self, number: int, spec: MatchSpec, leases: list[tuple[Entrant, SeatBot]]
    ) -> bool:
        """Play the match; True once its result and ratings are stored."""
        try:
            report = await self.play(spec, [bot for _, bot in leases])
        except Exception as error:
            self._end(number, leases, error)
            return False
        except asyncio.CancelledError as error:
            self._end(number, leases, error)
            raise
        self._release(leases)
        self.store.finish(number, _seat_results(report, leases))
        self.notify(number, report)
        return True

    def _end(
        self, number: int, leases: list[tuple[Entrant, SeatBot]], error: BaseException
    ) -> None:
        self._release(leases)
        self.store.void(number)
        self.notify(number, error)

    @staticmethod
    def _release(leases: Sequence[tuple[Entrant, SeatBot]]) -> None:
        for entrant, bot in leases:
            entrant.release(bot)


def _seat_results(
    report: MatchReport, leases: Sequence[tuple[Entrant, SeatBot]]
) -> list[SeatResult]:
    return [
        SeatResult(
            entrant.name,
            entrant.version,
            report.places[seat],
            report.scores[seat],
            [i.to_json() for i in report.incidents if i.seat == seat],
        )
        for seat, (entrant, _) in enumerate(leases)
    ]


async def run_ladder(
    store: ArenaStore,
    lobby: LobbyLike,
    game: str,
    players: int,
    *,
    records: Path | None,
    max_matches: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    deadline: float = 2.0,
    time_bank: float = 60.0,
    policy: FailurePolicy = FailurePolicy.DEFAULT,
    new_version: NewVersion = NewVersion.KEEP,
    matches: int | None = None,
    notify: Notify = lambda number, outcome: None,
    play: Play = play_alone,
) -> int:
    """Run the ladder of `game` for `players` seats on `lobby`'s bots, at most
    `max_matches` matches at once, until cancelled (the matches in flight are then void),
    or, given `matches`, until that many have started and ended; `play` plays each. Matches
    still running in `store` from an arena that stopped are made void first. Returns the
    matches rated.
    ValueError for a bad game, option or player count; StoreError if `store` holds
    another game's arena or fails."""
    if players < 2:
        raise ValueError("a ladder needs at least 2 players a match")
    resolved = checked_options(game, players, dict(options or {}))
    store.check_game(game)
    store.void_unfinished()
    if records:
        private_dir(records)
    template = MatchSpec("", game, seed, resolved, deadline, time_bank, policy, records)
    ladder = Ladder(store, lobby, template, players, new_version, notify, play)
    running: set[asyncio.Task[bool]] = set()
    changed: asyncio.Future[Any] | None = None
    started = rated = 0
    try:
        while matches is None or started < matches or running:
            while len(running) < max_matches and (matches is None or started < matches):
                seated = ladder.pick(bool(running))
                if seated is None:
                    break
                started += 1
                task = ladder.launch(seated)
                if task is None:
                    break
                running.add(task)
            if changed is None or changed.done():
                changed = asyncio.ensure_future(lobby.changed())
            waited: set[asyncio.Future[Any]] = {changed, *running}
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            for task in running & done:
                running.discard(task)
                rated += task.result()
    finally:
        if changed is not None:
            changed.cancel()
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
    return rated
