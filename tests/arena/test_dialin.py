"""A bot that dials in plays as a served bot does: the same match, deadlines, incidents and
broken-connection rule, over real streams on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import re

from dialin import Keys, arena, dialing, free_entrant, until
from e2e_helpers import ScriptedBot, serving

from admiralty.arena.dialin import serve_arena
from admiralty.arena.lobby import DialedEntrant, Lobby, Registered
from admiralty.referee.launcher import free_port
from admiralty.referee.match import RETIRED, Match, MatchSpec
from admiralty.referee.policy import IncidentKind
from admiralty_sdk.connect import dial

KEYS = {"alpha-key": Registered("alpha", 1)}


def choose(request) -> int:
    """Every answer follows from the request, so two matches of one seed are one match."""
    return (request.window_id + request.seat) % len(request.options)


async def played(spec: MatchSpec, bots) -> tuple:
    """The report of `spec` between `bots`, and its decisions as (seat, index, how)."""
    decisions = []

    def keep(step, request, answer, caused) -> None:
        decisions.append((request.seat, answer.index, answer.how))

    match = Match(spec, bots, wire_id="fixed", decision_listeners=[keep])
    return await match.run(), decisions


async def served(spec: MatchSpec) -> tuple:
    """`spec` played by two served bots that answer by `choose`."""
    async with serving([ScriptedBot("alpha", choose), ScriptedBot("beta", choose)]) as clients:
        return await played(spec, clients)


async def dialed(spec: MatchSpec, bot: ScriptedBot, dial_in) -> tuple:
    """`spec` played by `bot` dialed in with `dial_in(address)` (a context manager) in seat
    0 and a served bot in seat 1; also whether another stream took up the seat during
    the match, and the bot's streams open once the seat was released."""
    async with (
        arena(Keys(KEYS)) as (lobby, address),
        dial_in(address),
        serving([ScriptedBot("beta", choose)]) as clients,
    ):
        entrant = await free_entrant(lobby, "alpha")
        seat = entrant.lease()
        first = seat.stream
        report, decisions = await played(spec, [seat, clients[0]])
        moved = seat.stream is not first
        entrant.release(seat)
        return report, decisions, moved, len(entrant.streams)


def test_a_dialed_in_bot_plays_a_match_as_a_served_bot_does():
    """Same seed, same deterministic bots: the same decisions and result, no incident; the
    released connection is free again."""
    spec = MatchSpec("dialed", "jamaica", 11)

    async def main():
        bot = ScriptedBot("alpha", choose)
        return await served(spec), await dialed(
            spec, bot, lambda address: dialing(bot, address, "alpha-key")
        )

    (served_report, served_decisions), (report, decisions, moved, streams) = asyncio.run(main())
    assert sum(how == "bot" for _, _, how in decisions) > 10
    assert report.incidents == served_report.incidents == []
    assert decisions == served_decisions
    assert (report.places, report.scores) == (served_report.places, served_report.scores)
    assert report.bot_names == ["alpha", "beta"]
    assert not moved and streams == 1


class Dropping(ScriptedBot):
    """Answers by `choose`, but on its `drop_at`-th request drops its stream (`drop()`):
    that request is left unanswered on it."""

    def __init__(self, drop_at: int):
        super().__init__("alpha", choose)
        self.drop_at = drop_at
        self.drop = lambda: None

    async def decide(self, request) -> int:
        if len(self.requests) + 1 == self.drop_at:
            self.requests.append(request)
            self.drop()
            await asyncio.Event().wait()
        return await super().decide(request)


@contextlib.asynccontextmanager
async def redialing(bot: Dropping, address: str, after: float | None):
    """`bot` dialed in; when it drops, dialed in again `after` seconds later (None: never)."""
    tasks = []

    def start() -> None:
        tasks.append(asyncio.create_task(dial(bot, address, key="alpha-key")))

    def drop() -> None:
        tasks[-1].cancel()
        if after is not None:
            asyncio.get_running_loop().call_later(after, start)

    bot.drop = drop
    start()
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def test_a_bot_that_drops_mid_match_and_reconnects_in_time_is_asked_again():
    """The broken call is asked again, with the same request id, on the new stream, which
    takes up the seat: no incident, and the match is the one it would have been."""
    spec = MatchSpec("dropped", "jamaica", 11, deadline=5.0)
    bot = Dropping(drop_at=3)

    async def main():
        return await served(spec), await dialed(
            spec, bot, lambda address: redialing(bot, address, after=0.2)
        )

    (_, served_decisions), (report, decisions, moved, _) = asyncio.run(main())
    assert report.incidents == []
    assert decisions == served_decisions
    assert moved
    asked_twice = bot.requests[2]
    assert bot.requests[3].request_id == asked_twice.request_id == "3"
    assert bot.requests[3].deadline_ms < asked_twice.deadline_ms


def test_a_bot_that_drops_and_does_not_come_back_crashed():
    """Not back within the deadline: a broken connection is a crash, and the seat retired."""
    spec = MatchSpec("gone", "jamaica", 11, deadline=0.5)
    bot = Dropping(drop_at=2)
    report, _, _, streams = asyncio.run(
        dialed(spec, bot, lambda address: redialing(bot, address, after=None))
    )
    [incident] = report.incidents
    assert (incident.seat, incident.kind, incident.request_id) == (0, IncidentKind.CRASH, "2")
    assert incident.detail.startswith("the connection broke: the bot's stream ended")
    assert incident.detail.endswith(RETIRED)
    assert report.places[0] == 2
    assert streams == 0


class Silent(ScriptedBot):
    """Never answers a decision."""

    async def decide(self, request) -> int:
        self.requests.append(request)
        await asyncio.Event().wait()
        return 0


def test_a_bot_that_never_answers_times_out_is_retired_and_its_stream_closed():
    """Three timeouts in a row retire the seat; released without MatchOver, its stream is
    closed, and the SDK connects again: the bot is free for another match."""
    spec = MatchSpec("silent", "jamaica", 11, deadline=0.2)
    bot = Silent("alpha")

    async def main():
        async with (
            arena(Keys(KEYS)) as (lobby, address),
            dialing(bot, address, "alpha-key"),
            serving([ScriptedBot("beta", choose)]) as clients,
        ):
            entrant = await free_entrant(lobby, "alpha")
            seat = entrant.lease()
            first = seat.stream
            report, _ = await played(spec, [seat, clients[0]])
            entrant.release(seat)
            assert first.status[0].name == "ABORTED"
            again = await free_entrant(lobby, "alpha")
            return report, again.streams[0] is not first

    report, reconnected = asyncio.run(main())
    kinds = [(i.seat, i.kind, i.request_id) for i in report.incidents]
    assert kinds == [(0, IncidentKind.TIMEOUT, str(n)) for n in (1, 2, 3)]
    assert report.incidents[-1].detail.endswith(RETIRED)
    assert reconnected


class Late(ScriptedBot):
    """Answers its first decision after `delay` seconds, the others at once."""

    def __init__(self, delay: float):
        super().__init__("alpha", choose)
        self.delay = delay

    async def decide(self, request) -> int:
        delay, self.delay = self.delay, 0.0
        await asyncio.sleep(delay)
        return await super().decide(request)


def test_an_answer_after_its_deadline_is_a_timeout_and_the_stream_plays_on():
    """The late answer is ignored (not taken for an answer to a call never made)."""
    spec = MatchSpec("late", "jamaica", 11, deadline=0.3)
    bot = Late(0.6)
    report, _, moved, streams = asyncio.run(
        dialed(spec, bot, lambda address: dialing(bot, address, "alpha-key"))
    )
    assert [(i.kind, i.request_id) for i in report.incidents] == [(IncidentKind.TIMEOUT, "1")]
    assert not moved and streams == 1
    assert len(bot.requests) > 10


class Raising(ScriptedBot):
    """Raises on its first decision."""

    async def decide(self, request) -> int:
        if not self.requests:
            self.requests.append(request)
            raise ValueError("no idea")
        return await super().decide(request)


def test_an_error_the_bot_reports_is_an_illegal_answer_with_where_it_was_raised():
    spec = MatchSpec("raising", "jamaica", 11)
    bot = Raising("alpha", choose)
    report, _, _, _ = asyncio.run(
        dialed(spec, bot, lambda address: dialing(bot, address, "alpha-key"))
    )
    [incident] = report.incidents
    assert incident.kind is IncidentKind.ILLEGAL
    assert incident.detail.startswith("the call failed: UNKNOWN: ValueError: no idea")
    assert "test_dialin.py:" in incident.detail


def test_a_removed_bot_is_told_and_cannot_dial_in_again():
    """Its streams close with UNAUTHENTICATED; `dial` stops with the one line."""

    async def main():
        keys = Keys(KEYS)
        async with arena(keys) as (lobby, address):
            task = asyncio.create_task(dial(ScriptedBot("alpha"), address, key="alpha-key"))
            await free_entrant(lobby, "alpha")
            del keys["alpha-key"]
            lobby.remove("alpha")
            removed = await until(task.done) and task.exception()
            again = await asyncio.gather(
                dial(ScriptedBot("alpha"), address, key="alpha-key"), return_exceptions=True
            )
            return removed, again[0], lobby.connected()

    removed, again, connected = asyncio.run(main())
    assert str(removed).endswith(": the bot was removed from the arena")
    assert str(again).endswith(": wrong or revoked key")
    assert connected == []


def test_connections_beyond_the_registered_number_are_refused_while_the_others_play():
    async def main():
        keys = Keys({"alpha-key": Registered("alpha", 2)})
        async with (
            arena(keys) as (lobby, address),
            dialing(ScriptedBot("alpha"), address, "alpha-key", connections=3),
        ):
            entrant: DialedEntrant = await until(
                lambda: next((e for e in lobby.free() if len(e.streams) == 2), None)
            )
            await asyncio.sleep(0.3)
            return len(entrant.streams), len(entrant.idle())

    assert asyncio.run(main()) == (2, 2)


def test_the_sdk_waits_longer_each_time_it_is_refused_and_rejoins_a_restarted_arena(
    monkeypatch, capsys
):
    """Nothing listens at first: the waits double (with jitter, within half of the full
    wait); an arena that starts there, and another after it stops, each get the bot."""
    # the module: the package's `connect` is its function
    monkeypatch.setattr(importlib.import_module("admiralty_sdk.connect"), "BACKOFF_FIRST", 0.05)
    port = free_port()
    address = f"127.0.0.1:{port}"

    async def serve_once() -> str:
        lobby = Lobby(Keys(KEYS))
        server = await serve_arena("127.0.0.1", port, lobby)
        try:
            return (await free_entrant(lobby, "alpha")).name
        finally:
            await server.stop(None)

    async def main():
        async with dialing(ScriptedBot("alpha"), address, "alpha-key"):
            await asyncio.sleep(0.6)
            return [await serve_once(), await serve_once()]

    assert asyncio.run(main()) == ["alpha", "alpha"]
    waits = [float(w) for w in re.findall(r"again in ([0-9.]+) s", capsys.readouterr().err)]
    assert len(waits) >= 4
    for attempt, wait in enumerate(waits[:4]):
        assert 0.05 * 2**attempt / 2 - 0.05 <= wait <= 0.05 * 2**attempt + 0.05
