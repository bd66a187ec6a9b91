"""Chaos at scale (`soak`): many chaos matches at once against one `serve`, and a long
tournament with a bot that dies after every match. ADMIRALTY_CHAOS_MATCHES sets how many
matches each plays (CI: 6; `ADMIRALTY_CHAOS_MATCHES=300 pytest -m soak -n 2 tests/chaos`)."""

from __future__ import annotations

import asyncio
import math

import pytest
from chaos_helpers import (
    AFTER_DEATHS,
    IN_PROCESS,
    SOAK_MATCHES,
    chaos,
    check_match,
    check_record,
    create,
    finished,
    incident_dicts,
    kinds_by_fault,
    referee,
    run_tournament,
)
from e2e_helpers import RANDOM_BOT, ScriptedBot, serving

from admiralty_sdk.v1 import referee_pb2

FAULTS = sorted(IN_PROCESS)


@pytest.mark.soak
def test_soak_many_chaos_matches_at_once_against_serve(tmp_path):
    """Three seats a match, two of them faulty, every pairing of faults in turn; up to 32
    matches at once."""

    async def main():
        bots = {fault: make() for fault, (make, _) in IN_PROCESS.items()}
        async with (
            serving([*bots.values(), ScriptedBot("ok", lambda r: 0)]) as clients,
            referee(tmp_path) as stub,
        ):
            address = dict(zip([*bots, "none"], [c.address for c in clients], strict=True))
            tables = [
                (FAULTS[i % len(FAULTS)], FAULTS[(i + 1 + i // len(FAULTS)) % len(FAULTS)], "none")
                for i in range(SOAK_MATCHES)
            ]
            running = asyncio.Semaphore(32)  # the server refuses a 65th running match

            async def one(seed: int, table: tuple[str, ...]) -> referee_pb2.MatchSummary:
                async with running:
                    match_id = await create(stub, [address[f] for f in table], seed, 1500)
                    return await finished(stub, match_id)

            summaries = await asyncio.gather(
                *(one(seed, table) for seed, table in enumerate(tables, start=1))
            )
            return list(zip(tables, summaries, strict=True))

    played = asyncio.run(main())
    assert len(played) == SOAK_MATCHES
    for table, summary in played:
        assert summary.status == referee_pb2.MATCH_STATUS_FINISHED, summary.error
        places = [p.place for p in summary.result.placements]
        check_match(table, places, incident_dicts(summary.result))
        check_record(summary.record_path)


@pytest.mark.soak
def test_soak_a_long_tournament_with_a_bot_that_dies_after_every_match(tmp_path):
    """Five bots at every table: three that answer wrongly, one that dies after each match
    (restarted twice, then disqualified), one random; ADMIRALTY_CHAOS_MATCHES / 5 rounds."""
    bots = [chaos("garbage"), chaos("stale"), chaos("huge"), chaos("crash-over"), RANDOM_BOT]
    rounds = math.ceil(SOAK_MATCHES / len(bots))
    matches = run_tournament(
        tmp_path,
        bots,
        rounds * len(bots),
        "--players",
        "5",
        "--rounds",
        str(rounds),
        "--deadline",
        "2",
    )
    kinds = kinds_by_fault(matches, AFTER_DEATHS)
    assert {f: set(k) for f, k in kinds.items() if f != "crash-over"} == {
        "garbage": {"illegal"},
        "stale": {"stale"},
        "huge": {"oversize"},
    }
