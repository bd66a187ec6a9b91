"""`admiralty check-bot`: the checks a bot must pass to play well on an admiralty referee.

The bot plays short matches of every game it plays (Hello `games`; empty is every game)
against reference bots served in this process on 127.0.0.1: first some matches one at a
time, then as many at once, then one in which it holds several seats. The checks reach the
bot through a `Reach`: a client to its address (`AddressReach`), or the streams it dialed
in on (`admiralty.arena.checking`). The evidence is what its seats note (`Observed`: every
request sent and how each call ended, every MatchOver), the match reports and the match
records.

Checks of single answers (legal index, request id, deadline) are decided on the matches
played one at a time; the concurrency checks fail only on failures those matches did not
show. So each fault fails the one check that names it, and a bot author reads the table
from the top.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import math
import random
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import grpc

from admiralty import __version__
from admiralty.games import GAMES, Window, load_game
from admiralty.referee.clients import CHANNEL_OPTIONS, MAX_REPLY_BYTES, BotClient, SeatBot
from admiralty.referee.launcher import (
    NO_ISOLATION,
    STARTUP_TIMEOUT,
    BotLaunchError,
    Isolation,
    LaunchedBot,
    free_port,
    launch_all,
    stop_all,
)
from admiralty.referee.match import (
    RETIRING,
    Incident,
    Match,
    MatchReport,
    MatchSpec,
    checked_options,
)
from admiralty.referee.policy import IncidentKind
from admiralty.referee.record import read_record
from admiralty.wire import from_window_kind
from admiralty_sdk import Bot, start_server
from admiralty_sdk.v1 import bot_pb2, bot_pb2_grpc

ALIVE_TIMEOUT = 5.0
"""Seconds the bot has to answer Hello again once every match is over."""
REASON_LIMIT = 300
"""Characters of a check's reason: it quotes the bot's own strings, which are untrusted."""
NOT_LEGAL = frozenset({IncidentKind.ILLEGAL, IncidentKind.OVERSIZE})
"""Incidents of an answer that is no legal option: charged to the window kind asked."""


class Result(enum.StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    NOT_EXERCISED = "NOT EXERCISED"


LEGAL = {window: f"legal-index:{window.lower()}" for window in Window}
CHECKS = (
    "hello",
    "request-id-echo",
    "deadline",
    *LEGAL.values(),
    "concurrent-matches",
    "concurrent-seats",
    "match-over",
    "match-info",
    "auto-pass",
    "no-crash",
)
"""Every check's stable id, in the order they are reported."""


@dataclass(frozen=True)
class Check:
    id: str
    result: Result
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "result": str(self.result), "reason": self.reason}


@dataclass
class Conformance:
    """The verdict on one bot: who it said it is, the games it was checked in, each check."""

    spec: str
    name: str
    version: str
    games: list[str]
    seed: int
    checks: list[Check]
    options: Mapping[str, Any] = field(default_factory=dict)
    """The game options every match of the games that have them was played with."""

    @property
    def failed(self) -> bool:
        return any(check.result is Result.FAIL for check in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.spec,
            "name": self.name,
            "version": self.version,
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "checks": [check.to_json() for check in self.checks],
        }


def _check(check_id: str, result: Result, reason: str) -> Check:
    """A check whose reason is one line, however the bot's strings it quotes are made."""
    reason = " ".join(reason.split())
    if len(reason) > REASON_LIMIT:
        reason = reason[: REASON_LIMIT - 1] + "…"
    return Check(check_id, result, reason)


# -- observing the bot ---------------------------------------------------------------------


@dataclass
class Sent:
    """One DecideRequest the referee sent the bot, and how the call ended."""

    match: str
    seat: int
    request_id: str
    window: Window
    optional: bool
    informed: bool
    """Whether it carried match_info."""
    code: grpc.StatusCode | None = None
    """None if the bot replied (in time, whatever it said); else the call's status."""
    detail: str = ""

    @property
    def ending(self) -> str:
        """How the call ended, as a check's message says it."""
        return "OK" if self.code is None else f"{self.code.name}: {self.detail}"


class Observation:
    """What the referee's calls to the bot under check showed in one stage: every request
    sent and how each call ended, every MatchOver. The referee keeps none of that (it drops
    MatchOver errors, and a reply is judged, not kept)."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.match_overs: list[str] = []
        """One entry per MatchOver call: "" if it returned OK, else the error."""
        self.most_at_once = 0
        """The most (match, seat) pairs with a request in flight at the same time."""
        self._in_flight: set[tuple[str, int]] = set()

    @contextlib.contextmanager
    def deciding(self, request: bot_pb2.DecideRequest) -> Iterator[Sent]:
        sent = Sent(
            request.match_id,
            request.seat,
            request.request_id,
            from_window_kind(request.window),
            request.optional,
            request.HasField("match_info"),
        )
        self.sent.append(sent)
        key = (request.match_id, request.seat)
        self._in_flight.add(key)
        self.most_at_once = max(self.most_at_once, len(self._in_flight))
        try:
            yield sent
        finally:
            self._in_flight.discard(key)


class Observed:
    """A seat of the bot under check: its `SeatBot` (a client to its address, or a stream
    it dialed in on), every call noted in the stage's `Observation`."""

    def __init__(self, bot: SeatBot, observation: Observation):
        self._bot = bot
        self._observation = observation

    @property
    def name(self) -> str:
        return self._bot.name

    @property
    def absent(self) -> str:
        return self._bot.absent

    @property
    def auto_pass(self) -> frozenset[Window]:
        return self._bot.auto_pass

    @property
    def diagnose(self) -> Callable[[bool], str] | None:
        return self._bot.diagnose

    def reached(self) -> bool:
        return self._bot.reached()

    def slot(self) -> contextlib.AbstractAsyncContextManager[object]:
        return self._bot.slot()

    async def decide(self, request: bytes, timeout: float) -> bot_pb2.DecideResponse:
        with self._observation.deciding(bot_pb2.DecideRequest.FromString(request)) as sent:
            try:
                return await self._bot.decide(request, timeout)
            except grpc.aio.AioRpcError as error:
                sent.code, sent.detail = error.code(), error.details() or ""
                raise

    async def match_over(self, request: bot_pb2.MatchOverRequest, timeout: float) -> None:
        try:
            await self._bot.match_over(request, timeout)
        except grpc.aio.AioRpcError as error:
            self._observation.match_overs.append(f"{error.code().name}: {error.details()}")
            raise
        self._observation.match_overs.append("")


class Unplayable(Exception):
    """The bot cannot hold the seats a stage plays at once; the message says why."""


class Reach(Protocol):
    """How the checks reach the bot under check: at an address, or over the streams it
    dialed in on."""

    @property
    def crashes(self) -> int:
        """Times the bot's process died, when the checker started it."""
        ...

    async def hello(self, timeout: float) -> bot_pb2.HelloResponse:
        """The bot's Hello as it sent it; grpc.aio.AioRpcError if it does not answer."""
        ...

    def seats(self, count: int) -> contextlib.AbstractAsyncContextManager[Callable[[], SeatBot]]:
        """For matches played at the same time, in which the bot holds `count` seats: a
        maker of its seat bots (Unplayable if it cannot hold that many)."""
        ...


@dataclass
class AddressReach:
    """A bot served at an address (started by the checker or not): one client for the
    matches played at the same time, shared by every seat, as a referee reaches it."""

    bot: LaunchedBot

    @property
    def crashes(self) -> int:
        return self.bot.crashes

    async def hello(self, timeout: float) -> bot_pb2.HelloResponse:
        # the referee's client keeps only what it uses, and shows an empty name as the address
        address = self.bot.client.address
        async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
            return await bot_pb2_grpc.BotServiceStub(channel).Hello(
                bot_pb2.HelloRequest(referee_version=__version__, protocol="v1"),
                timeout=timeout,
                wait_for_ready=True,
            )

    @contextlib.asynccontextmanager
    async def seats(self, count: int) -> AsyncIterator[Callable[[], SeatBot]]:
        client = BotClient(self.bot.client.address)
        try:
            await client.hello()
            yield lambda: client
        finally:
            await client.close()


# -- the reference bots --------------------------------------------------------------------


class FirstOption(Bot):
    """Always option 0 (PASS where PASS is legal): a scripted opponent."""

    name = "reference-first-option"

    def decide(self, request: bot_pb2.DecideRequest) -> int:
        return 0


class SeededRandom(Bot):
    """A uniform choice from a generator per match and seat, seeded by the check's seed:
    the match ids are derived from it too, so a check repeats with its seed."""

    name = "reference-random"

    def __init__(self, seed: int):
        self.seed = seed
        self._rngs: dict[tuple[str, int], random.Random] = {}

    def decide(self, request: bot_pb2.DecideRequest) -> int:
        key = (request.match_id, request.seat)
        if key not in self._rngs:
            self._rngs[key] = random.Random(f"{self.seed}:{request.match_id}:{request.seat}")
        return self._rngs[key].randrange(len(request.options))

    def on_match_over(self, message: bot_pb2.MatchOverRequest) -> None:
        self._rngs.pop((message.result.match_id, message.seat), None)


@contextlib.asynccontextmanager
async def _references(seed: int) -> AsyncIterator[dict[str, BotClient]]:
    """The reference bots served here on free 127.0.0.1 ports, as connected clients."""
    servers, clients = [], {}
    try:
        for key, bot in (("first", FirstOption()), ("random", SeededRandom(seed))):
            port = free_port()
            servers.append(await start_server(bot, port))
            clients[key] = BotClient(f"127.0.0.1:{port}")
            await clients[key].hello()
        yield clients
    finally:
        await asyncio.gather(*(client.close() for client in clients.values()))
        await asyncio.gather(*(server.stop(grace=None) for server in servers))


# -- playing -------------------------------------------------------------------------------


class Stage(enum.StrEnum):
    ONE = "one at a time"
    AT_ONCE = "at once"
    SEATS = "in several seats"


@dataclass
class Played:
    """One stage of one game: the bot's seats in each match, the reports, what its seats
    noted and, from the records, how each decision of its seats was made."""

    game: str
    stage: Stage
    observation: Observation
    seats: list[frozenset[int]]
    reports: list[MatchReport] = field(default_factory=list)
    decisions: Counter[tuple[Window, str]] = field(default_factory=Counter)
    """(window kind, how: bot, forced, auto_pass, forfeited or incident) -> decisions."""

    def incidents(self) -> list[tuple[Incident, Window | None]]:
        """The incidents of the bot's seats, each with the window kind it was asked in."""
        windows = {(s.match, s.seat, s.request_id): s.window for s in self.observation.sent}
        return [
            (incident, windows.get((report.wire_id, incident.seat, incident.request_id)))
            for report, seats in zip(self.reports, self.seats, strict=True)
            for incident in report.incidents
            if incident.seat in seats
        ]


@dataclass(frozen=True)
class CheckPlan:
    """What the check plays: its seed, each decision's deadline, the matches per game
    played one at a time (and again at once), and game options for every match of the
    games that have them (`round_cap` for shorter games, say)."""

    seed: int
    deadline: float = 2.0
    matches: int = 3
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """ValueError, before anything is played, for an option no game has or a value a
        game that has it refuses."""
        for name in self.options:
            if not any(name in _option_names(game) for game in GAMES):
                raise ValueError(f"no game has an option {name!r} (admiralty games GAME)")
        for game in GAMES:
            checked_options(game, load_game(game).min_players, self.options_of(game))

    def options_of(self, game: str) -> dict[str, Any]:
        """The options `game` has."""
        names = _option_names(game)
        return {name: value for name, value in self.options.items() if name in names}


def _option_names(game: str) -> set[str]:
    return {spec.name for spec in load_game(game).info.options}


@dataclass(frozen=True)
class _Setup:
    reach: Reach
    plan: CheckPlan
    references: dict[str, BotClient]
    records: Path


def _seatings(stage: Stage, game: str, count: int) -> list[tuple[int, frozenset[int]]]:
    """(players, the bot's seats) of each match of a stage: the fewest players, the bot's
    seat moving round; in SEATS one match of three (where the game allows) in which the bot
    holds every seat but the last."""
    rules = load_game(game)
    if stage is Stage.SEATS:
        players = min(max(3, rules.min_players), rules.max_players)
        return [(players, frozenset(range(max(players - 1, 2))))]
    players = rules.min_players
    return [(players, frozenset({number % players})) for number in range(count)]


def _groups(stage: Stage, game: str, count: int) -> list[list[tuple[int, frozenset[int]]]]:
    """The stage's seatings (`_seatings`) as the groups of matches played at the same time:
    one group AT_ONCE, else one group per match."""
    seatings = _seatings(stage, game, count)
    return [seatings] if stage is Stage.AT_ONCE else [[seating] for seating in seatings]


def seats_needed(games: Iterable[str], matches: int) -> int:
    """The most seats the bot holds at once in the checks of `games`: the connections a
    bot that dials in needs for every stage."""
    return max(
        sum(len(seats) for _, seats in group)
        for game in games
        for stage in Stage
        for group in _groups(stage, game, matches)
    )


def _match(
    setup: _Setup,
    game: str,
    stage: Stage,
    number: int,
    players: int,
    seats: frozenset[int],
    seat_bot: Callable[[], SeatBot],
) -> Match:
    """A match of the stage, its seed and wire id derived from the check's seed; the other
    seats random, or (with the bot in several seats) first-option."""
    name = f"{game}-{stage.name.lower()}-{number}"
    digest = hashlib.sha256(f"{setup.plan.seed}:{name}".encode()).digest()
    spec = MatchSpec(
        f"check-{name}",
        game,
        int.from_bytes(digest[:16]),
        setup.plan.options_of(game),
        deadline=setup.plan.deadline,
        record_path=setup.records / f"{name}.jsonl.gz",
    )
    other = setup.references["first" if stage is Stage.SEATS else "random"]
    bots = [seat_bot() if seat in seats else other for seat in range(players)]
    return Match(spec, bots, wire_id=digest[16:24].hex())


async def _play(setup: _Setup, game: str, stage: Stage) -> Played:
    """Play the stage's matches; Unplayable if the bot cannot hold the seats of a group
    played at the same time."""
    groups = _groups(stage, game, setup.plan.matches)
    played = Played(game, stage, Observation(), [seats for group in groups for _, seats in group])
    matches: list[Match] = []
    for group in groups:
        async with setup.reach.seats(sum(len(seats) for _, seats in group)) as seat_bot:
            batch = [
                _match(
                    setup,
                    game,
                    stage,
                    len(matches) + number,
                    players,
                    seats,
                    lambda: Observed(seat_bot(), played.observation),
                )
                for number, (players, seats) in enumerate(group)
            ]
            matches += batch
            played.reports += await asyncio.gather(*(match.run() for match in batch))
    for match, seats in zip(matches, played.seats, strict=True):
        if match.spec.record_path is None:
            raise RuntimeError(f"check match {match.spec.match_id} kept no record")
        played.decisions.update(
            (Window(line["window"]), line["how"])
            for line in read_record(match.spec.record_path)
            if line["t"] == "decision" and line["seat"] in seats
        )
    return played


# -- the check -----------------------------------------------------------------------------


async def check_bot(
    spec: str,
    plan: CheckPlan,
    startup_timeout: float = STARTUP_TIMEOUT,
    isolation: Isolation = NO_ISOLATION,
    progress: Callable[[str], None] = lambda stage: None,
) -> Conformance:
    """Launch (or reach) the bot `spec` as `play` does (isolated as asked), play it, and
    decide every check.

    BotLaunchError if it cannot be started or reached; a Hello the referee refuses is a
    failed `hello` check instead, since that is what the author must fix."""
    try:
        [bot] = await launch_all([spec], startup_timeout, isolation=isolation)
    except (BotLaunchError, ValueError) as error:
        reason = _refusal(error)
        if reason is None:
            raise
        return Conformance(
            spec,
            "",
            "",
            [],
            plan.seed,
            [
                _check("hello", Result.FAIL, f"the referee refuses it: {reason}"),
                *(
                    _check(
                        check,
                        Result.NOT_EXERCISED,
                        "nothing played: the referee refuses the bot at Hello",
                    )
                    for check in CHECKS[1:]
                ),
            ],
        )
    try:
        return await check_reached(spec, AddressReach(bot), plan, progress)
    finally:
        await stop_all([bot])


def _refusal(error: Exception) -> str | None:
    """Why the referee refused the bot's Hello, if that is why it could not be launched
    (the launcher raises its one-line error `from None`: the refusal is its context)."""
    cause = error.__context__ if isinstance(error, BotLaunchError) else error
    if isinstance(cause, grpc.aio.AioRpcError):
        oversize = cause.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        return f"its Hello is over {MAX_REPLY_BYTES:,} bytes" if oversize else None
    # a HelloError (a field over its limit), or an auto_pass value that is no window kind
    return str(cause) if isinstance(cause, ValueError) else None


async def check_reached(
    spec: str,
    reach: Reach,
    plan: CheckPlan,
    progress: Callable[[str], None] = lambda stage: None,
) -> Conformance:
    """Play the bot `reach` reaches (`spec` names it in the verdict) and decide every
    check. A stage it cannot hold the seats of is not played: its checks say why."""
    hello = await reach.hello(ALIVE_TIMEOUT)
    games = [game for game in dict.fromkeys(hello.games or GAMES) if game in GAMES]
    played: list[Played] = []
    unplayed: dict[Stage, str] = {}
    with tempfile.TemporaryDirectory(prefix="admiralty-check-") as records:
        async with _references(plan.seed) as references:
            setup = _Setup(reach, plan, references, Path(records))
            for game in games:
                for stage in Stage:
                    progress(f"{game}, {stage}")
                    try:
                        played.append(await _play(setup, game, stage))
                    except Unplayable as why:
                        unplayed.setdefault(stage, f"not played: {why}")
    alive = await _still_answers(reach)
    checks = _decide(hello, played, unplayed, plan.deadline, reach.crashes, alive)
    return Conformance(spec, hello.name, hello.version, games, plan.seed, checks, plan.options)


async def _still_answers(reach: Reach) -> str:
    """ "" if the bot answers Hello after the matches, else why not."""
    try:
        await reach.hello(ALIVE_TIMEOUT)
    except grpc.aio.AioRpcError as error:
        return f"{error.code().name}: {error.details()}"
    return ""


def _decide(
    hello: bot_pb2.HelloResponse,
    played: list[Played],
    unplayed: dict[Stage, str],
    deadline: float,
    crashes: int,
    alive: str,
) -> list[Check]:
    if not played:
        return [
            _hello_check(hello),
            *(
                _check(check, Result.NOT_EXERCISED, "nothing played: it plays no registered game")
                for check in CHECKS[1:]
            ),
        ]
    one, at_once, seats = ([p for p in played if p.stage is stage] for stage in Stage)
    declared = frozenset(from_window_kind(kind) for kind in hello.auto_pass)
    return [
        _hello_check(hello),
        _echo_check(one),
        _deadline_check(one, deadline),
        *(_legal_check(one, window) for window in Window),
        _concurrency_check(
            "concurrent-matches",
            one,
            at_once,
            lambda: f"{len(at_once[0].seats)} at a time",
            unplayed.get(Stage.AT_ONCE, ""),
        ),
        _concurrency_check(
            "concurrent-seats",
            one,
            seats,
            lambda: f"{len(seats[0].seats[0])} seats each",
            unplayed.get(Stage.SEATS, ""),
        ),
        _match_over_check(played),
        _match_info_check(played),
        _auto_pass_check(played, declared),
        _crash_check(played, crashes, alive),
    ]


def _sent(played: Iterable[Played]) -> list[Sent]:
    """Every request sent, once (a call the connection broke is asked again, same id)."""
    return list(
        {(s.match, s.seat, s.request_id): s for p in played for s in p.observation.sent}.values()
    )


def _incidents(played: Iterable[Played]) -> list[tuple[Incident, Window | None]]:
    return [pair for p in played for pair in p.incidents()]


def _matches(played: list[Played]) -> str:
    games = ", ".join(dict.fromkeys(p.game for p in played))
    count = sum(len(p.reports) for p in played)
    return f"{count} match{'' if count == 1 else 'es'} of {games}"


def _hello_check(hello: bot_pb2.HelloResponse) -> Check:
    """Hello passed the referee's limits (or the bot was refused); what is left to check
    is that it says who it is and names games the referee knows."""
    unknown = [game for game in hello.games if game not in GAMES]
    problems = [
        problem
        for bad, problem in (
            (not hello.name, "its name is empty (results would show its address)"),
            (not hello.version, "its version is empty"),
            (
                unknown,
                f"it lists games that are not registered: {', '.join(map(repr, unknown))}"
                f" (registered: {', '.join(GAMES)})",
            ),
        )
        if bad
    ]
    if problems:
        return _check("hello", Result.FAIL, "; ".join(problems))
    kinds = ", ".join(from_window_kind(kind) for kind in hello.auto_pass) or "nothing"
    return _check(
        "hello",
        Result.PASS,
        f"{hello.name!r} version {hello.version!r}, plays "
        f"{', '.join(hello.games) or 'every game'}, auto-passes {kinds}",
    )


def _echo_check(one: list[Played]) -> Check:
    answered = sum(1 for sent in _sent(one) if sent.code is None)
    stale = [i for i, _ in _incidents(one) if i.kind is IncidentKind.STALE]
    if not answered:
        return _check(
            "request-id-echo", Result.NOT_EXERCISED, "no answer came back to judge (see deadline)"
        )
    if stale:
        return _check(
            "request-id-echo",
            Result.FAIL,
            f"{len(stale)} of {answered} answers echoed another request id, e.g. {stale[0].detail}",
        )
    return _check("request-id-echo", Result.PASS, f"all {answered} answers echoed their request id")


def _deadline_check(one: list[Played], deadline: float) -> Check:
    latencies = sorted(
        ms
        for p in one
        for report, seats in zip(p.reports, p.seats, strict=True)
        for seat in seats
        for ms in report.latencies_ms[seat]
    )
    late = [i for i, _ in _incidents(one) if i.kind is IncidentKind.TIMEOUT]
    if not latencies:
        return _check("deadline", Result.NOT_EXERCISED, f"never asked in {_matches(one)}")
    p95 = latencies[math.ceil(0.95 * len(latencies)) - 1]
    summary = (
        f"p95 {p95:.0f} ms, slowest {latencies[-1]:.0f} ms, against a "
        f"{deadline * 1000:.0f} ms deadline over {len(latencies)} requests"
    )
    if late:
        return _check(
            "deadline", Result.FAIL, f"{len(late)} requests not answered in time; {summary}"
        )
    return _check("deadline", Result.PASS, summary)


def _legal_check(one: list[Played], window: Window) -> Check:
    """No illegal answer to a request of `window`, among those answered in time with the
    right id (the others fail their own checks)."""
    asked = [sent for sent in _sent(one) if sent.window is window]
    failed = [i for i, kind in _incidents(one) if kind is window]
    illegal = [i for i in failed if i.kind in NOT_LEGAL]
    judged = len(asked) - len(failed) + len(illegal)
    if not asked:
        return _check(LEGAL[window], Result.NOT_EXERCISED, _unasked(one, window))
    if judged <= 0:
        return _check(
            LEGAL[window],
            Result.NOT_EXERCISED,
            f"asked {len(asked)} times, but "
            "no answer came back in time with its id (see deadline, request-id-echo)",
        )
    if illegal:
        return _check(
            LEGAL[window],
            Result.FAIL,
            f"{len(illegal)} of {judged} answers were no legal option, e.g. {illegal[0].detail}",
        )
    passed = sum(p.decisions[window, "auto_pass"] for p in one)
    also = f"; {passed} with PASS were passed for it (auto_pass)" if passed else ""
    return _check(LEGAL[window], Result.PASS, f"all {judged} answers legal{also}")


def _unasked(one: list[Played], window: Window) -> str:
    """Why the bot was never asked in a `window` window, from the records."""
    how: Counter[str] = Counter()
    for played in one:
        for (kind, made), count in played.decisions.items():
            if kind is window:
                how[made] += count
    if how["auto_pass"]:
        return (
            f"never asked: it declares {window} in auto_pass, and the referee passed "
            f"for it {how['auto_pass']} times"
        )
    if how["forfeited"]:
        return (
            f"never asked: its {window} decisions were played by the policy after it "
            "failed (see no-crash, deadline)"
        )
    if how["forced"]:
        return f"never asked: its {how['forced']} {window} decisions had one option only"
    games = list(dict.fromkeys(played.game for played in one))
    if not any(window in load_game(game).info.windows for game in games):
        return (
            f"never asked: {' and '.join(games)} open{'s' * (len(games) == 1)} no {window} window"
        )
    return f"no {window} window came to its seats in {_matches(one)}"


def _failure_key(incident: Incident, window: Window | None) -> tuple[IncidentKind, Window | None]:
    """A failure's kind, and for an answer that is no legal option the window kind too."""
    return incident.kind, window if incident.kind in NOT_LEGAL else None


def _concurrency_check(
    check: str, one: list[Played], stage: list[Played], how: Callable[[], str], unplayed: str
) -> Check:
    """The stage's failures that one-at-a-time play did not show: answers mixed up between
    matches or seats, or a bot too slow when asked several things at once."""
    if not stage:
        return _check(check, Result.NOT_EXERCISED, unplayed or "not played")
    known = {_failure_key(*pair) for pair in _incidents(one)}
    new = [pair for pair in _incidents(stage) if _failure_key(*pair) not in known]
    asked = len(_sent(stage))
    what = f"{_matches(stage)}, {how()}"
    if not asked:
        return _check(check, Result.NOT_EXERCISED, f"never asked in {what}")
    if new:
        incident, window = new[0]
        where = f" in {window}" if window else ""
        return _check(
            check,
            Result.FAIL,
            f"{len(new)} failures in {what} that one-at-a-time "
            f"play did not show, e.g. {incident.kind}{where}: {incident.detail}",
        )
    at_once = max(p.observation.most_at_once for p in stage)
    return _check(
        check,
        Result.PASS,
        f"{asked} requests in {what} (up to {at_once} in "
        "flight): no failure beyond those of one-at-a-time play",
    )


def _match_over_check(played: list[Played]) -> Check:
    calls = [call for p in played for call in p.observation.match_overs]
    failed = [call for call in calls if call]
    if not calls:
        return _check(
            "match-over",
            Result.NOT_EXERCISED,
            "never told: the referee retired every seat it held (see no-crash, deadline)",
        )
    if failed:
        return _check(
            "match-over",
            Result.FAIL,
            f"{len(failed)} of {len(calls)} MatchOver calls failed: {failed[0]}",
        )
    return _check(
        "match-over",
        Result.PASS,
        f"all {len(calls)} MatchOver calls (one per seat it held to the end) returned OK",
    )


def _match_info_check(played: list[Played]) -> Check:
    """The first request of each match and seat carries match_info, the later ones not:
    the bot must cope with both (a timeout is the deadline check's)."""
    sent = _sent(played)
    informed = [s for s in sent if s.informed]
    broke = [s for s in informed if s.code not in (None, grpc.StatusCode.DEADLINE_EXCEEDED)]
    later = [s for s in sent if not s.informed]
    later_answered = sum(1 for s in later if s.code is None)
    if not informed:
        return _check("match-info", Result.NOT_EXERCISED, f"never asked in {_matches(played)}")
    if broke:
        return _check(
            "match-info",
            Result.FAIL,
            f"{len(broke)} of {len(informed)} requests with match_info failed: {broke[0].ending}",
        )
    if later and not later_answered:
        return _check(
            "match-info",
            Result.FAIL,
            f"none of the {len(later)} requests without match_info was answered: {later[0].ending}",
        )
    return _check(
        "match-info",
        Result.PASS,
        f"{len(informed)} requests with match_info and "
        f"{later_answered} of {len(later)} later ones without it answered",
    )


def _auto_pass_check(played: list[Played], declared: frozenset[Window]) -> Check:
    """The referee passes for the bot, without asking, wherever PASS is legal in a window
    kind it declared, and the matches still finish. Where PASS is not legal (in Jamaica,
    a defender's loot or gunpowder is an INTERRUPT) it must still ask."""
    kinds = ", ".join(sorted(declared))
    if not declared:
        return _check("auto-pass", Result.NOT_EXERCISED, "it declares no auto_pass kind")
    sent = [s for s in _sent(played) if s.window in declared]
    asked = [s for s in sent if s.optional]
    passed = sum(
        count for p in played for (_, how), count in p.decisions.items() if how == "auto_pass"
    )
    if asked:
        return _check(
            "auto-pass",
            Result.FAIL,
            f"the referee asked it {len(asked)} "
            f"decisions with PASS of a kind it declared ({kinds})",
        )
    if not passed:
        return _check(
            "auto-pass",
            Result.NOT_EXERCISED,
            f"no {kinds} window with PASS came to its seats in {_matches(played)}",
        )
    return _check(
        "auto-pass",
        Result.PASS,
        f"declares {kinds}: the referee passed for it "
        f"{passed} times without asking, and all {_matches(played)} finished; "
        f"{len(sent)} {kinds} requests without PASS were asked, as they must be",
    )


def _crash_check(played: list[Played], crashes: int, alive: str) -> Check:
    broke = [i for i, _ in _incidents(played) if i.kind in RETIRING]
    if crashes:
        return _check("no-crash", Result.FAIL, f"its process died {crashes} times")
    if broke:
        return _check(
            "no-crash", Result.FAIL, f"the connection broke {len(broke)} times: {broke[0].detail}"
        )
    if alive:
        return _check("no-crash", Result.FAIL, f"it no longer answers Hello: {alive}")
    return _check(
        "no-crash",
        Result.PASS,
        f"it never died nor lost its connection in {_matches(played)}, and still answers Hello",
    )
