"""Shared by the chaos tests: the adversarial bots, the CLI, a referee server, a tournament
run, and what every match must show.

What a faulty seat must show (`EXPECTED`) is one table for every path (play, tournament,
serve), so each path is held to the same rules:
- every incident of a match is on a faulty seat, and of that fault's kinds, exactly;
- a seat whose bot crashed, hung, broke (every answer failing) or was unreachable is
  placed after every seat still playing, whatever the policy;
- the match's record re-runs to the same events and digests.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc
from e2e_helpers import ScriptedBot

from admiralty.referee import verify_record
from admiralty.referee.launcher import free_port
from admiralty.referee.match import DETAIL_LIMIT
from admiralty.referee.service import serve_referee
from admiralty_sdk.v1 import common_pb2, referee_pb2, referee_pb2_grpc

CHAOS_BOT = Path(__file__).resolve().parent / "bots" / "chaos_bot.py"
LONG_NAME_BOT = Path(__file__).resolve().parents[1] / "e2e" / "bots" / "long_name_bot.py"
BIG_NAME_BOT = f"{LONG_NAME_BOT} 3000000"
"""An SDK bot named with 3 MB."""
CLI = [sys.executable, "-m", "admiralty.cli"]
SOAK_MATCHES = int(os.environ.get("ADMIRALTY_CHAOS_MATCHES", "6"))
"""How many matches each soak variant plays: small in CI, e.g. 500 for a real soak."""


def chaos(fault: str, *args: str) -> str:
    """The BOT argument of a chaos bot with `fault`."""
    return " ".join([str(CHAOS_BOT), "--fault", fault, *args])


@dataclass(frozen=True)
class Expected:
    """What a seat played by a bot with this fault shows in one match."""

    kinds: frozenset[str]
    """The incident kinds it may have; empty for none."""
    retired: bool = False
    """Whether it must end the match retired (so placed last)."""
    single: bool = False
    """Whether it has at most one incident (its first retires it)."""
    always: bool = True
    """Whether it must have at least one incident."""


CLEAN = Expected(frozenset(), always=False)
EXPECTED = {
    "none": CLEAN,
    "slow-hello": CLEAN,
    "under-deadline": CLEAN,
    "crash-over": CLEAN,
    "bounce": CLEAN,
    "hang": Expected(frozenset({"timeout"}), retired=True),
    "crash-decide": Expected(frozenset({"crash"}), retired=True, single=True),
    "garbage": Expected(frozenset({"illegal"}), retired=True),
    "stale": Expected(frozenset({"stale"}), retired=True),
    "huge": Expected(frozenset({"oversize"}), retired=True),
}
BROKEN = ("garbage", "stale", "huge")
"""Faults by which every answer fails: the bot is broken after 3 of them in a row."""
AFTER_DEATHS = {
    "crash-decide": Expected(frozenset({"crash", "unreachable"}), retired=True, single=True),
    "crash-over": Expected(frozenset({"crash", "unreachable"}), single=True, always=False),
}
"""In a run of many matches a bot that dies is restarted, then disqualified after three
deaths: a later seat of it is unreachable; one whose bot was still coming back when asked
may be either. A crash-over bot dies only between matches, so most of its seats are clean."""


def seat_fault(spec: str) -> str:
    """The fault of a BOT argument: a chaos bot's --fault, else none."""
    parts = spec.split()
    return parts[parts.index("--fault") + 1] if "--fault" in parts else "none"


def check_match(
    faults: Sequence[str],
    places: Sequence[int],
    incidents: Sequence[dict],
    table: dict[str, Expected] | None = None,
    forfeit: bool = False,
) -> Counter:
    """Assert one match followed the rules for its seats' faults; its incident kinds.

    Under the forfeit policy a seat's first incident of any kind ends its play."""
    table = {**EXPECTED, **(table or {})}
    by_seat: dict[int, list[dict]] = {seat: [] for seat in range(len(faults))}
    for incident in incidents:
        by_seat[incident["seat"]].append(incident)
        assert len(incident["detail"]) <= DETAIL_LIMIT, incident
    retired = set()
    for seat, fault in enumerate(faults):
        expected, own = table[fault], by_seat[seat]
        kinds = {incident["kind"] for incident in own}
        assert kinds <= expected.kinds, (seat, fault, own)
        assert own or not expected.always, (seat, fault, "no incident")
        if expected.single or forfeit:
            assert len(own) <= 1, (seat, fault, own)
        if own and forfeit:
            retired.add(seat)
        elif own and (expected.retired or kinds & {"crash", "unreachable"}):
            assert "placed last" in own[-1]["detail"], own[-1]
            retired.add(seat)
        if fault == "hang" and not forfeit:  # two timeouts, then the third says it is hung
            assert [i["kind"] for i in own] == ["timeout"] * 3, own
            assert "hung" in own[-1]["detail"]
        if fault in BROKEN and not forfeit:  # two failed answers, then the third retires it
            assert len(own) == 3, own
            assert "3 failed answers in a row: the bot is broken" in own[-1]["detail"]
    playing = [place for seat, place in enumerate(places) if seat not in retired]
    for seat in retired:
        assert not playing or places[seat] > max(playing), (seat, places)
    return Counter(incident["kind"] for incident in incidents)


def check_record(path: str | Path) -> None:
    """The record re-runs to the same events and digests, and holds no bot's long string."""
    report = verify_record(Path(path))
    assert report.ok, report.mismatches
    with gzip.open(path, "rt") as file:
        text = file.read()
    assert_no_long_run(text)


def assert_no_long_run(text: str, limit: int = 1000) -> None:
    """No run of one of the chaos bots' filler characters longer than `limit`: a bot's huge
    string (a stale or oversize id, a 3 MB name) never reaches output or records whole."""
    for filler in "shn":
        assert filler * limit not in text, f"a run of {filler!r} over {limit} characters"


def run_cli(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess:
    """`admiralty ARGS` with a wide terminal, so an error line is never wrapped."""
    env = {**os.environ, "COLUMNS": "400"}
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env
    )


def play_json(tmp_path: Path, game: str, bots: Sequence[str], *extra: str) -> dict:
    """`admiralty play --json` that must succeed; its report, whose record has verified."""
    record = tmp_path / "match.jsonl.gz"
    args = ["play", game, "--seed", "11", "--record", str(record), "--json", *extra]
    for bot in bots:
        args += ["--bot", bot]
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert_no_long_run(result.stdout)
    report = json.loads(result.stdout)
    assert report["record"] == str(record)
    check_record(record)
    return report


def rss_kb(pid: int | str = "self") -> int:
    """Resident memory of a process, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


# ------------------------------------------------------------- serve

TOKEN = "chaos-token"
ADMIN = (("authorization", f"Bearer {TOKEN}"),)
DONE = (referee_pb2.MATCH_STATUS_FINISHED, referee_pb2.MATCH_STATUS_FAILED)


def first_option(request) -> int:
    return 0


class IdBot(ScriptedBot):
    """Echoes `request_id` instead of the request's own id (the SDK echoes what it got)."""

    def __init__(self, name: str, request_id: str):
        super().__init__(name, first_option)
        self.request_id = request_id

    async def decide(self, request) -> int:
        request.request_id = self.request_id
        return 0


async def under_deadline(request) -> int:
    if int(request.request_id) <= 4:
        await asyncio.sleep(request.deadline_ms / 1000 - 0.4)
    return 0


IN_PROCESS = {
    "hang": (lambda: ScriptedBot("hang", lambda r: asyncio.Event().wait()), 1500),
    "garbage": (lambda: ScriptedBot("garbage", lambda r: 2**32 - 1), 0),
    "stale": (lambda: IdBot("stale", "s" * 60_000), 0),
    "huge": (lambda: IdBot("huge", "h" * 1_000_000), 0),
    "under-deadline": (lambda: ScriptedBot("under-deadline", under_deadline), 1500),
}
"""Faults an SDK bot in this process can show, with the deadline (ms) of its match."""


@contextlib.asynccontextmanager
async def referee(tmp_path, **options):
    """A RefereeService on a free port, recording into tmp_path, and a stub to call it."""
    port = free_port()
    server = await serve_referee("127.0.0.1", port, TOKEN, tmp_path / "records", **options)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield referee_pb2_grpc.RefereeServiceStub(channel)
    finally:
        await server.stop(grace=None)


async def create(stub, bots: list[str], seed: int, deadline_ms: int = 0) -> str:
    """CreateMatch with the admin token; the new match's id."""
    reply = await stub.CreateMatch(
        referee_pb2.CreateMatchRequest(
            game="jamaica", bots=bots, seed=seed, deadline_ms=deadline_ms
        ),
        metadata=ADMIN,
    )
    return reply.match_id


async def finished(stub, match_id: str) -> referee_pb2.MatchSummary:
    """The match's summary once it has finished or failed (a generous bound, not a timing)."""
    async with asyncio.timeout(120):
        while True:
            reply = await stub.GetMatch(
                referee_pb2.GetMatchRequest(match_id=match_id), metadata=ADMIN
            )
            if reply.match.status in DONE:
                return reply.match
            await asyncio.sleep(0.05)


def incident_dicts(result: common_pb2.MatchResult) -> list[dict]:
    """A result's incidents as `check_match` takes them (the kind's name, lower case)."""
    return [
        {
            "seat": i.seat,
            "request_id": i.request_id,
            "detail": i.detail,
            "kind": common_pb2.IncidentKind.Name(i.kind).removeprefix("INCIDENT_KIND_").lower(),
        }
        for i in result.incidents
    ]


# -------------------------------------------------------- tournament


def run_tournament(tmp_path: Path, bots: list[str], planned: int, *extra: str) -> list[dict]:
    """Run a Jamaica tournament to the end; each stored result with its seats' faults."""
    db = tmp_path / "chaos.db"
    args = [
        "tournament",
        "run",
        "jamaica",
        "--seed",
        "3",
        "--name",
        "chaos",
        "--parallel",
        "2",
        "--db",
        str(db),
        "--records",
        str(tmp_path / "records"),
        "--json",
        *extra,
    ]
    for bot in bots:
        args += ["--bot", bot]
    result = run_cli(*args, cwd=tmp_path, timeout=400)
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout)
    assert summary["planned"] == summary["finished"] == planned
    with sqlite3.connect(db) as connection:
        specs = dict(connection.execute("SELECT idx, spec FROM bots WHERE tournament = 'chaos'"))
        rows = connection.execute(
            "SELECT m.seats, r.places, r.incidents, r.record FROM results r JOIN matches m "
            "ON m.tournament = r.tournament AND m.match_id = r.match_id "
            "WHERE r.tournament = 'chaos'"
        ).fetchall()
    assert len(rows) == planned
    return [
        {
            "faults": [seat_fault(specs[bot]) for bot in json.loads(seats)],
            "places": json.loads(places),
            "incidents": json.loads(incidents),
            "record": record,
        }
        for seats, places, incidents, record in rows
    ]


def kinds_by_fault(matches: list[dict], table=None) -> dict[str, Counter]:
    """Check every match; the incident kinds of each fault's seats over the tournament."""
    kinds: dict[str, Counter] = {}
    for match in matches:
        check_match(match["faults"], match["places"], match["incidents"], table)
        check_record(match["record"])
        for incident in match["incidents"]:
            fault = match["faults"][incident["seat"]]
            kinds.setdefault(fault, Counter())[incident["kind"]] += 1
    return kinds
